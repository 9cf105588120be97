"""The App Home tab, a workspace's settings modal (its time zone, webhook and Zoom account
among them), the daily digest, and who may not see candidates."""

from __future__ import annotations

from store.models import Locale

WORDS: dict[str, dict[Locale, str]] = {
    # the App Home tab (handlers/listeners/home.py)
    "home_title": {"zh": "你的招聘待办", "en": "Your hiring queue"},
    "home_waiting": {"zh": "等你给结论（{count}）", "en": "Waiting for your decision ({count})"},
    "home_new": {
        "zh": "昨天以来有新面试记录的候选人（{count}）",
        "en": "Candidates with new transcripts since yesterday ({count})",
    },
    "home_unanswered": {
        "zh": "有未回答问题的候选人（{count}）",
        "en": "With unanswered questions ({count})",
    },
    "home_decided": {"zh": "你最近的结论（{count}）", "en": "Your recent decisions ({count})"},
    "home_none": {"zh": "暂时没有。", "en": "Nothing here."},
    "home_search": {"zh": "搜索候选人", "en": "Search candidates"},
    "home_settings": {"zh": "工作区设置", "en": "Workspace settings"},
    "settings_title": {"zh": "工作区设置", "en": "Workspace settings"},
    "settings_save": {"zh": "保存", "en": "Save"},
    "settings_intro": {
        "zh": "这些设置只适用于本工作区，只有工作区管理员和所有者可以修改。",
        "en": "These settings are this workspace's alone; only its admins and owners may change them.",
    },
    "settings_users": {"zh": "可以查看候选人的人", "en": "Who may see candidates"},
    "settings_users_hint": {
        "zh": "不选人也不填用户组：工作区里所有人都可以查看。",
        "en": "No one chosen and no group: everyone in the workspace may.",
    },
    "settings_groups": {"zh": "可以查看候选人的用户组", "en": "User groups who may see candidates"},
    "settings_groups_hint": {
        "zh": "用户组 ID（S 开头），用逗号分隔。",
        "en": "User group IDs (starting with S), separated by commas.",
    },
    "settings_channels": {
        "zh": "可以显示候选人的频道",
        "en": "Channels candidates may be shown in",
    },
    "settings_channels_hint": {
        "zh": "不选：任何频道都可以。",
        "en": "None chosen: any channel.",
    },
    "settings_deciders": {"zh": "可以给出录用结论的人", "en": "Who may record a hiring decision"},
    "settings_decider_groups": {
        "zh": "可以给出录用结论的用户组",
        "en": "User groups who may record a hiring decision",
    },
    "settings_digest_channel": {"zh": "每日摘要发到", "en": "Daily digest channel"},
    "settings_digest_hint": {"zh": "不选：不发每日摘要。", "en": "None chosen: no daily digest."},
    "settings_digest_time": {"zh": "每日摘要时间", "en": "Daily digest time"},
    "settings_remind_time": {
        "zh": "逾期提醒时间（工作日）",
        "en": "Overdue reminders at (weekdays)",
    },
    "settings_remind": {"zh": "逾期提醒", "en": "Overdue reminders"},
    "settings_remind_off": {"zh": "不发提醒", "en": "Send no reminders"},
    "settings_footer": {
        "zh": "时间按上面的时区计算。保存后立即生效。",
        "en": "Times are in the time zone above. Saved settings apply at once.",
    },
    "settings_not_admin": {
        "zh": "只有工作区管理员和所有者可以修改这些设置。",
        "en": "Only the workspace's admins and owners may change these settings.",
    },
    "settings_bad_group": {
        "zh": "“{entry}”不是用户组 ID（应以 S 开头，例如 S0123ABC）",
        "en": "'{entry}' is not a user group ID (it starts with S, such as S0123ABC)",
    },
    "settings_digest_not_allowed": {
        "zh": "每日摘要的频道必须是可以显示候选人的频道之一",
        "en": "The digest channel must be one of the channels candidates may be shown in",
    },
    "settings_bad_time": {"zh": "请选择一个时间", "en": "Choose a time"},
    # a workspace's own time zone (issue 34)
    "settings_timezone": {"zh": "时区", "en": "Time zone"},
    "settings_timezone_hint": {
        "zh": "IANA 时区名，例如 Asia/Shanghai、America/New_York。留空：使用部署设置的时区。",
        "en": "An IANA time zone, such as Asia/Shanghai or America/New_York. Empty: the deployment's.",
    },
    "settings_bad_timezone": {
        "zh": "这不是 IANA 时区名，请填写例如 Asia/Shanghai 或 America/New_York",
        "en": "Not an IANA time zone name: give one such as Asia/Shanghai or America/New_York",
    },
    # a save from a modal opened before another admin's save (issue 34)
    "settings_stale": {
        "zh": "设置在你打开之后已被其他管理员修改，这次没有保存。请重新打开设置再修改。",
        "en": "Settings changed meanwhile: open them again. Nothing of this save was kept.",
    },
    # an org-wide install's settings: its organisation's admins and owners alone (issue 34)
    "settings_not_org_admin": {
        "zh": "这些设置适用于整个组织，只有组织的管理员和所有者可以修改。",
        "en": "These settings are the whole organisation's: only its admins and owners may change them.",
    },
    # the workspace's own webhook for its ATS (issue 34; handlers/views/webhook.py)
    "settings_hook_url": {
        "zh": "录用结论发送到（ATS 的 Webhook 地址）",
        "en": "Send hiring decisions to (your ATS's webhook URL)",
    },
    "settings_hook_url_hint": {
        "zh": "http:// 或 https:// 地址。留空：使用部署设置的地址（如果有）。",
        "en": "An http:// or https:// URL. Empty: the deployment's (if it has one).",
    },
    "settings_hook_secret": {"zh": "Webhook 签名密钥", "en": "Webhook signing secret"},
    "settings_hook_secret_set": {
        "zh": "已设置（不会显示）。留空则保留；输入新的则替换。",
        "en": "Set (never shown). Leave empty to keep it; type a new one to replace it.",
    },
    "settings_hook_secret_unset": {
        "zh": "未设置。你的接收端用它验证每个请求。",
        "en": "Not set. Your receiver checks each request with it.",
    },
    "settings_hook_clear": {"zh": "Webhook", "en": "Webhook"},
    "settings_hook_clear_option": {
        "zh": "清除本工作区的地址和密钥（改用部署设置的）",
        "en": "Clear this workspace's URL and secret (use the deployment's)",
    },
    "settings_hook_bad_url": {
        "zh": "请填写 http:// 或 https:// 开头的完整地址",
        "en": "Give a whole URL starting with http:// or https://",
    },
    "settings_hook_no_secret": {
        "zh": "请填写签名密钥：你的接收端用它验证请求",
        "en": "Give the signing secret: your receiver checks requests with it",
    },
    "settings_hook_no_url": {
        "zh": "密钥要和地址一起填写",
        "en": "A secret goes with a URL: give the URL too",
    },
    # a workspace's own Zoom account (handlers/views/zoom.py, issue 48)
    "settings_zoom_account": {"zh": "Zoom 账户 ID", "en": "Zoom account ID"},
    "settings_zoom_account_hint": {
        "zh": "Zoom 的 Server-to-Server OAuth 应用里的 Account ID。留空：不从 Zoom 取面试记录。",
        "en": "The Account ID of your Zoom Server-to-Server OAuth app. Empty: no transcripts"
        " from Zoom.",
    },
    "settings_zoom_client": {"zh": "Zoom Client ID", "en": "Zoom client ID"},
    "settings_zoom_client_hint": {
        "zh": "和 Client Secret 一起，用来从 Zoom 下载和同步面试记录。",
        "en": "With the client secret: to download and sync transcripts from Zoom.",
    },
    "settings_zoom_secret": {"zh": "Zoom Client Secret", "en": "Zoom client secret"},
    "settings_zoom_secret_set": {
        "zh": "已设置（不会显示）。留空则保留；输入新的则替换。",
        "en": "Set (never shown). Leave empty to keep it; type a new one to replace it.",
    },
    "settings_zoom_secret_unset": {"zh": "未设置。", "en": "Not set."},
    "settings_zoom_token": {
        "zh": "Zoom Webhook Secret Token",
        "en": "Zoom webhook secret token",
    },
    "settings_zoom_token_unset": {
        "zh": "未设置：没有它，Zoom 发来的 Webhook 事件都会被拒绝，面试记录只能在 Debrief"
        "与 Zoom 同步时取来（如果部署方开启了同步）。",
        "en": "Not set: without it every webhook event Zoom sends is refused, and transcripts"
        " come only when Debrief syncs with Zoom (if its operators turned syncing on).",
    },
    "settings_zoom_channel": {"zh": "Zoom 面试记录发到", "en": "Post Zoom interviews to"},
    "settings_zoom_channel_hint": {
        "zh": "不选：发到每日摘要的频道。",
        "en": "None chosen: the daily digest channel.",
    },
    "settings_zoom_clear": {"zh": "Zoom", "en": "Zoom"},
    "settings_zoom_clear_option": {
        "zh": "断开本工作区的 Zoom 账户（清除全部 Zoom 设置和密钥）",
        "en": "Disconnect this workspace's Zoom account (clear every Zoom setting and secret)",
    },
    "settings_zoom_bad_id": {
        "zh": "只能包含字母、数字、- 和 _，最多 64 个字符",
        "en": "Only letters, digits, - and _, up to 64 characters",
    },
    "settings_zoom_long_secret": {
        "zh": "最多 {most} 个字符",
        "en": "Up to {most} characters",
    },
    "settings_zoom_no_account": {
        "zh": "请填写 Zoom 账户 ID：其他 Zoom 设置都属于这个账户",
        "en": "Give the Zoom account ID: the other Zoom settings belong to it",
    },
    "settings_zoom_no_client": {
        "zh": "Client Secret 要和 Client ID 一起填写",
        "en": "A client secret goes with its client ID: give the client ID too",
    },
    "settings_zoom_no_secret": {
        "zh": "请填写这个 Client ID 的 Client Secret",
        "en": "Give this client ID's client secret",
    },
    "settings_zoom_channel_not_allowed": {
        "zh": "Zoom 面试记录的频道必须是可以显示候选人的频道之一",
        "en": "The Zoom interviews' channel must be one of the channels candidates may be shown in",
    },
    "settings_zoom_no_token": {
        "zh": "Zoom 账户已保存，但没有 Webhook Secret Token：Zoom 发来的事件都会被拒绝，"
        "面试记录只能在 Debrief 与 Zoom 同步时取来（如果部署方开启了同步）。要让面试一结束就收到，"
        "请在工作区设置里填写 Zoom 应用的 Secret Token。",
        "en": "The Zoom account is saved, but without a webhook secret token: every event Zoom"
        " sends is refused, and transcripts come only when Debrief syncs with Zoom (if its"
        " operators turned syncing on). To have them as soon as an interview ends, give the"
        " Zoom app's secret token in the workspace settings.",
    },
    "home_refreshed": {
        "zh": "每次打开本页都会更新。",
        "en": "Refreshed each time you open this tab.",
    },
    "search_title": {"zh": "搜索", "en": "Search"},
    "search_label": {"zh": "关键词（回车搜索）", "en": "Words (press Enter)"},
    "summary_title": {"zh": "候选人", "en": "Candidate"},
    "home_gone": {
        "zh": "这位候选人已不在库中（可能已被删除）。",
        "en": "This candidate is no longer indexed (perhaps erased).",
    },
    "digest_title": {"zh": "每日招聘摘要 · {day}", "en": "Daily hiring digest · {day}"},
    "digest_new": {
        "zh": "有新面试记录的候选人（{count}）",
        "en": "Candidates with new transcripts ({count})",
    },
    "digest_waiting": {
        "zh": "等待结论（{count}），最早的在前",
        "en": "Waiting for a decision ({count}), oldest first",
    },
    "digest_unanswered": {
        "zh": "有未回答的问题（{count}）",
        "en": "With unanswered questions ({count})",
    },
    "digest_decided": {"zh": "新记录的结论（{count}）", "en": "Decisions recorded ({count})"},
    "digest_more": {"zh": "还有 {count} 位", "en": "and {count} more"},
    "digest_show_all": {"zh": "全部列出", "en": "List them"},
    "digest_since": {"zh": "自 {since} 以来", "en": "since {since}"},
    "digest_overdue": {
        "zh": "逾期未给结论（{count}），逾期最久的在前",
        "en": "Overdue feedback ({count}), overdue longest first",
    },
    "digest_overdue_who": {"zh": "{who}（{due} 截止）", "en": "{who} (due {due})"},
    "digest_overdue_others": {"zh": "等另外 {count} 人", "en": "and {count} others"},
    "digest_overdue_line": {"zh": "逾期：{who}", "en": "Overdue: {who}"},
    # who may not see candidates (handlers/listeners/access.py), and a post that failed
    "refused": {
        "zh": "抱歉，你没有查看候选人信息的权限。如有需要，请联系招聘负责人。",
        "en": "Sorry, you are not allowed to see candidate information. Ask your recruiting lead.",
    },
    "refused_channel": {
        "zh": "这个频道不能显示候选人信息。请在招聘频道里使用。",
        "en": "Candidate information cannot be shown in this channel. Use a hiring channel.",
    },
    "refused_pending": {
        "zh": "我还在确认谁可以查看候选人信息，请一分钟后再试。",
        "en": "I am still checking who may see candidate information. Please try again in a minute.",
    },
    "post_unknown": {
        "zh": "Slack 没有确认这条消息是否已发出。为避免重复，我不会再发一次，请先看看频道里有没有。",
        "en": "Slack did not confirm whether the message went out. To avoid posting it twice I will"
        " not send it again: please check the channel.",
    },
}
