"""A setting that is wrong, naming the variable (bot/settings.py)."""

from __future__ import annotations

from store.models import Locale

WORDS: dict[str, dict[Locale, str]] = {
    # a setting that is wrong, naming the variable
    "setting_bad": {"zh": "{var}：{problem}", "en": "{var}: {problem}"},
    "setting_not_user_id": {
        "zh": "{entry!r} 不是 ID：请用 Slack ID，例如 U012AB3CD（某人）或 S012AB3CD（用户组）："
        "在 Slack 里打开此人的资料，⋮ 更多 → 复制成员 ID（Copy member ID）",
        "en": "{entry!r} is not an ID; use Slack IDs such as U012AB3CD (a person) or S012AB3CD"
        " (a user group): in Slack, open the person's profile, ⋮ More → Copy member ID",
    },
    "setting_not_channel_id": {
        "zh": "{entry!r} 不是频道 ID：请用频道 ID，例如 C012AB3CD：在 Slack 里点开频道顶部的名字，"
        "ID 在“关于”（About）页的最下面",
        "en": "{entry!r} is not a channel ID; use channel IDs such as C012AB3CD: in Slack, open"
        " the channel's name at the top, the ID is at the bottom of the About tab",
    },
    "setting_not_url": {
        "zh": "应为 http(s) 地址，例如 https://slack.com/api/",
        "en": "must be an http(s) URL such as https://slack.com/api/",
    },
    "setting_not_time": {"zh": "应为 HH:MM，例如 09:30", "en": "must be HH:MM, for example 09:30"},
    "setting_not_time_or_off": {
        "zh": "应为 HH:MM（例如 10:00），或 off（不提醒）",
        "en": "must be HH:MM (for example 10:00), or off (no reminders)",
    },
    "setting_not_days": {
        "zh": "应为整数天数，例如 365（不设置：不限）",
        "en": "must be a whole number of days, such as 365 (unset: no limit)",
    },
    "setting_days_range": {
        "zh": "应为 1 到 36500 之间的整数天数（不设置：不限）",
        "en": "must be a whole number of days from 1 to 36500 (unset: no limit)",
    },
    "setting_workers_range": {
        "zh": "应为 0 到 32 之间的整数（0：在服务进程内排序）",
        "en": "must be a whole number from 0 to 32 (0: rank in the serving process)",
    },
    "setting_not_timezone": {
        "zh": "应为 IANA 时区，例如 Asia/Shanghai",
        "en": "must be an IANA time zone such as Asia/Shanghai",
    },
    "setting_one_of": {"zh": "只能是 {choices} 之一", "en": "must be one of {choices}"},
    "setting_other": {"zh": "取值无效（{detail}）", "en": "{detail}"},
    "setting_no_bot_token": {
        "zh": "没有设置 SLACK_BOT_TOKEN：需要机器人令牌（xoxb-…）",
        "en": "SLACK_BOT_TOKEN is not set: the bot token (xoxb-…) is required",
    },
    "setting_not_bot_token": {
        "zh": "SLACK_BOT_TOKEN 应为以 xoxb- 开头的机器人令牌",
        "en": "SLACK_BOT_TOKEN must be a bot token starting with xoxb-",
    },
    "setting_token_and_oauth": {
        "zh": "SLACK_BOT_TOKEN 和 {variables} 都设置了：只服务一个工作区用 SLACK_BOT_TOKEN，"
        "安装到多个工作区用 SLACK_CLIENT_ID、SLACK_CLIENT_SECRET 和 SLACK_STATE_SECRET，只能选一种",
        "en": "both SLACK_BOT_TOKEN and {variables} are set: set SLACK_BOT_TOKEN to serve one"
        " workspace, or SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET to install"
        " in many, not both",
    },
    "setting_oauth_incomplete": {
        "zh": "要安装到多个工作区，还需要设置 {variables}（在 Slack 应用设置的 Basic Information 里）",
        "en": "to install in many workspaces, {variables} must be set too (the Slack app's"
        " Basic Information page)",
    },
    "setting_no_token_key": {
        "zh": "没有设置 DEBRIEF_TOKEN_KEY：安装到多个工作区时，各工作区的令牌用它加密保存。"
        '用 python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"'
        " 生成一个",
        "en": "DEBRIEF_TOKEN_KEY is not set: installed in many workspaces, their tokens are kept"
        ' encrypted with it. Make one with python -c "from cryptography.fernet import Fernet;'
        ' print(Fernet.generate_key().decode())"',
    },
    "setting_not_redirect_uri": {
        "zh": "应为 https:// 地址，并与 Slack 应用设置里的 Redirect URL 一致，"
        "例如 https://debrief.example.com/slack/oauth_redirect",
        "en": "must be an https:// URL, the same as a Redirect URL in the Slack app's settings,"
        " such as https://debrief.example.com/slack/oauth_redirect",
    },
    "setting_not_token_key": {
        "zh": '应为 Fernet 密钥（44 个字符，由 python -c "from cryptography.fernet import Fernet;'
        ' print(Fernet.generate_key().decode())" 生成），多个用逗号分隔',
        "en": 'must be a Fernet key (44 characters, made by python -c "from cryptography.fernet'
        ' import Fernet; print(Fernet.generate_key().decode())"), several separated by commas',
    },
    "setting_grace_range": {
        "zh": "应为 0 到 36500 之间的整数天数（0：在下一次每日清理时删除）",
        "en": "must be a whole number of days from 0 to 36500 (0: erased at the next daily run)",
    },
    "setting_ask_limit_range": {
        "zh": "应为 1 到 1000 之间的整数（每人每小时最多邀请的评审人数）",
        "en": "must be a whole number from 1 to 1000 (reviewers one user may ask an hour)",
    },
    "setting_rotation_range": {
        "zh": "应为 1 到 719 之间的整数分钟数（令牌 12 小时后过期）",
        "en": "must be a whole number of minutes from 1 to 719 (the tokens expire after 12 hours)",
    },
    "setting_both_modes": {
        "zh": "SLACK_APP_TOKEN 和 SLACK_SIGNING_SECRET 都设置了：Socket Mode 用 SLACK_APP_TOKEN，"
        "HTTP 模式用 SLACK_SIGNING_SECRET，只能设一个",
        "en": "both SLACK_APP_TOKEN and SLACK_SIGNING_SECRET are set: set SLACK_APP_TOKEN for"
        " Socket Mode or SLACK_SIGNING_SECRET for HTTP mode, not both",
    },
    "setting_not_app_token": {
        "zh": "SLACK_APP_TOKEN 应为以 xapp- 开头的应用级令牌",
        "en": "SLACK_APP_TOKEN must be an app-level token starting with xapp-",
    },
    "setting_no_mode": {
        "zh": "SLACK_APP_TOKEN（Socket Mode）和 SLACK_SIGNING_SECRET（HTTP 模式）都没有设置："
        "请设置其中一个",
        "en": "neither SLACK_APP_TOKEN (Socket Mode) nor SLACK_SIGNING_SECRET (HTTP mode) is set",
    },
    "setting_no_folder": {
        "zh": "DEBRIEF_TRANSCRIPTS：{folder} 不存在或不是文件夹",
        "en": "DEBRIEF_TRANSCRIPTS: {folder} does not exist or is not a folder",
    },
    "setting_unreadable_folder": {
        "zh": "DEBRIEF_TRANSCRIPTS：{folder} 无法读取",
        "en": "DEBRIEF_TRANSCRIPTS: {folder} is not readable",
    },
    "setting_digest_not_allowed": {
        "zh": "DEBRIEF_DIGEST_CHANNEL {channel} 不在 DEBRIEF_ALLOWED_CHANNELS 里："
        "把它加进去，或为摘要换一个允许的频道",
        "en": "DEBRIEF_DIGEST_CHANNEL {channel} is not in DEBRIEF_ALLOWED_CHANNELS:"
        " add it there, or pick an allowed channel for the digest",
    },
    "setting_not_webhook_url": {
        "zh": "应为 http:// 或 https:// 地址，例如 https://ats.example.com/debrief",
        "en": "must be an http:// or https:// URL such as https://ats.example.com/debrief",
    },
    "setting_webhook_no_secret": {
        "zh": "设置了 DEBRIEF_WEBHOOK_URL 时必须设置：每个请求都用它签名，接收方用它验证",
        "en": "required when DEBRIEF_WEBHOOK_URL is set: each request is signed with it,"
        " and the receiver checks the signature with it",
    },
    "setting_not_regex": {
        "zh": "应为正则表达式（不区分大小写），例如 面试|interview：{detail}",
        "en": "must be a regular expression (matched ignoring case) such as"
        " interview|面试: {detail}",
    },
    "setting_not_poll": {
        "zh": "应为 off 或时长，例如 15m、1h、90s（只写数字即分钟）",
        "en": "must be off or a duration such as 15m, 1h or 90s (a bare number is minutes)",
    },
    "setting_poll_range": {
        "zh": "应在 1 秒到 1 天之间",
        "en": "must be from one second to one day",
    },
    "setting_zoom_incomplete": {
        "zh": "连接 Zoom 需要同时设置 {variables}",
        "en": "connecting Zoom needs {variables} as well",
    },
}
