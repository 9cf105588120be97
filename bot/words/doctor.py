"""What `debrief doctor` says of each check: the token or setting to fix."""

from __future__ import annotations

from store.models import Locale

WORDS: dict[str, dict[Locale, str]] = {
    # the digest's channel shared with another organisation (Slack Connect, issue 34)
    "doctor_channel_shared": {
        "zh": "{channel} 与其他组织共享：每日摘要不会发到这里（除非设置 DEBRIEF_ALLOW_SHARED_CHANNELS=true）",
        "en": "{channel} is shared with another organisation: the digest is not posted there"
        " (unless DEBRIEF_ALLOW_SHARED_CHANNELS=true)",
    },
    "doctor_channel_shared_allowed": {
        "zh": "{channel} 与其他组织共享，而 DEBRIEF_ALLOW_SHARED_CHANNELS 允许在这里发帖：其他公司的人能读到每日摘要",
        "en": "{channel} is shared with another organisation, and DEBRIEF_ALLOW_SHARED_CHANNELS"
        " allows posting there: people of another company read the digest",
    },
    # doctor: whether mentions in /candidate arrive escaped (should_escape)
    "doctor_mentions_ok": {
        "zh": "/candidate 里的 @ 提及以用户 ID 到达（should_escape 已开启；最近一次：{at}）",
        "en": "mentions in /candidate arrive as user ids (should_escape is on; last seen {at})",
    },
    "doctor_mentions_plain": {
        "zh": "最近一次 /candidate 邀请里的 @ 提及是普通文字（{at}）：在 manifest 里给 /candidate"
        " 设置 should_escape: true 并重新安装应用",
        "en": "the last /candidate request had its mentions as plain text ({at}): set"
        " should_escape: true on /candidate in the manifest and reinstall the app",
    },
    "doctor_mentions_unknown": {
        "zh": "还没有收到带 @ 提及的 /candidate 邀请：无法判断 should_escape（机器人令牌读不到 manifest）",
        "en": "no /candidate request with a mention seen yet: should_escape cannot be told"
        " (a bot token cannot read the manifest)",
    },
    # the other checks, in the order doctor makes them (bot/doctor.py)
    "doctor_install_ok": {
        "zh": "安装到多个工作区：SLACK_CLIENT_ID、SLACK_CLIENT_SECRET、SLACK_STATE_SECRET 和 DEBRIEF_TOKEN_KEY 都已设置",
        "en": "installed in many workspaces: SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET and DEBRIEF_TOKEN_KEY are set",
    },
    "doctor_token_key_ok": {
        "zh": "DEBRIEF_TOKEN_KEY 能解密已安装的 {n} 个工作区的令牌",
        "en": "DEBRIEF_TOKEN_KEY decrypts the tokens of the {n} workspace(s) installed",
    },
    "doctor_token_key_stale": {
        "zh": "DEBRIEF_TOKEN_KEY 无法解密 {n} 个工作区（{keys}）的令牌：密钥换过了吗？把旧密钥用逗号接在新密钥后面，否则这些工作区要重新安装",
        "en": "DEBRIEF_TOKEN_KEY cannot decrypt the tokens of {n} workspace(s) ({keys}): was the key replaced? Put the old key after the new one, comma-separated, or those workspaces must install Debrief again",
    },
    "doctor_bot_unset": {
        "zh": "没有设置 SLACK_BOT_TOKEN：在应用的 OAuth & Permissions 页复制 Bot User OAuth Token（xoxb-…）",
        "en": "SLACK_BOT_TOKEN is not set: copy the Bot User OAuth Token (xoxb-…) from the app's OAuth & Permissions page",
    },
    "doctor_bot_is_app_token": {
        "zh": "SLACK_BOT_TOKEN 里是应用级令牌（xapp-…）：它应放在 SLACK_APP_TOKEN；SLACK_BOT_TOKEN 应是 OAuth & Permissions 页的 Bot User OAuth Token（xoxb-…）",
        "en": "SLACK_BOT_TOKEN holds an app-level token (xapp-…): that one goes in SLACK_APP_TOKEN; SLACK_BOT_TOKEN takes the Bot User OAuth Token (xoxb-…) from OAuth & Permissions",
    },
    "doctor_bot_not_bot": {
        "zh": "SLACK_BOT_TOKEN 不是机器人令牌（xoxb-…）：在 OAuth & Permissions 页复制 Bot User OAuth Token",
        "en": "SLACK_BOT_TOKEN is not a bot token (xoxb-…): copy the Bot User OAuth Token from OAuth & Permissions",
    },
    "doctor_bot_revoked": {
        "zh": "Slack 拒绝了 SLACK_BOT_TOKEN（{error}）：重新安装应用，或重新复制 Bot User OAuth Token",
        "en": "Slack refused SLACK_BOT_TOKEN ({error}): reinstall the app or copy the Bot User OAuth Token again",
    },
    "doctor_bot_refused": {
        "zh": "Slack 拒绝了 SLACK_BOT_TOKEN（{error}）",
        "en": "Slack refused SLACK_BOT_TOKEN ({error})",
    },
    "doctor_unreachable": {
        "zh": "连不上 {url} 的 Slack：{exc}",
        "en": "cannot reach Slack at {url}: {exc}",
    },
    "doctor_bot_ok": {
        "zh": "机器人 {user}，工作区 {team}（{team_id}）",
        "en": "bot {user} in workspace {team} ({team_id})",
    },
    "doctor_scopes_unknown": {
        "zh": "Slack 没有告知令牌的权限范围",
        "en": "Slack did not report the token's scopes",
    },
    "doctor_scopes_missing": {
        "zh": "缺少 {missing}：在应用的 OAuth & Permissions 页添加（或用 manifest.yml 重建），然后重新安装应用",
        "en": "missing {missing}: add them in the app's OAuth & Permissions (or reinstall from manifest.yml), then reinstall the app",
    },
    "doctor_scopes_ok": {
        "zh": "manifest 要求的 {n} 项权限都已授予",
        "en": "{n} scopes the manifest asks for are granted",
    },
    "doctor_channel_not_found": {
        "zh": "{error}（私有频道：请先邀请机器人）",
        "en": "{error} (private channel: invite the bot first)",
    },
    "doctor_channel_error": {"zh": "{error}", "en": "{error}"},
    "doctor_channel_unreachable": {"zh": "无法询问 Slack：{exc}", "en": "cannot ask Slack: {exc}"},
    "doctor_channel_ok": {"zh": "机器人在 {channel} 里", "en": "the bot is in {channel}"},
    "doctor_deciders_unset": {
        "zh": "DEBRIEF_DECIDERS 未设置：没有人可以用 /candidate 结论 记录录用结论",
        "en": "DEBRIEF_DECIDERS is not set: nobody may record a hiring decision"
        " (/candidate decide)",
    },
    "doctor_deciders_group": {
        "zh": "DEBRIEF_DECIDERS 里的用户组 {group} 读不到（{error}）：检查组 ID，"
        "以及应用是否有 usergroups:read 权限（manifest.yml）",
        "en": "the user group {group} in DEBRIEF_DECIDERS cannot be read ({error}): check the"
        " group id, and that the app has the usergroups:read scope (manifest.yml)",
    },
    "doctor_deciders_ok": {
        "zh": "可以记录录用结论的：{users} 位用户、{groups} 个用户组",
        "en": "who may record a hiring decision: {users} user(s), {groups} user group(s)",
    },
    "doctor_channel_not_member": {
        "zh": "机器人不在 {channel} 里：/invite @Debrief",
        "en": "the bot is not in {channel}: /invite @Debrief",
    },
    "doctor_app_unset": {
        "zh": "没有设置 SLACK_APP_TOKEN（HTTP 模式不需要）",
        "en": "SLACK_APP_TOKEN is not set (HTTP mode needs none)",
    },
    "doctor_app_is_bot_token": {
        "zh": "SLACK_APP_TOKEN 里是机器人令牌（xoxb-…）：在 Basic Information → App-Level Tokens 生成带 connections:write 的应用级令牌（xapp-…）",
        "en": "SLACK_APP_TOKEN holds a bot token (xoxb-…): generate an app-level token (xapp-…) with connections:write under Basic Information → App-Level Tokens",
    },
    "doctor_app_not_app": {
        "zh": "SLACK_APP_TOKEN 不是应用级令牌（xapp-…）：在 Basic Information → App-Level Tokens 生成一个",
        "en": "SLACK_APP_TOKEN is not an app-level token (xapp-…): generate one under Basic Information → App-Level Tokens",
    },
    "doctor_app_revoked": {
        "zh": "Slack 拒绝了 SLACK_APP_TOKEN（{error}）：在 Basic Information → App-Level Tokens 生成一个带 connections:write 的新令牌",
        "en": "Slack refused SLACK_APP_TOKEN ({error}): generate a new one with connections:write under Basic Information → App-Level Tokens",
    },
    "doctor_app_scope": {
        "zh": "SLACK_APP_TOKEN 缺少 connections:write 权限（{error}）：生成一个带这项权限的新令牌",
        "en": "SLACK_APP_TOKEN lacks the connections:write scope ({error}): generate a new one with it",
    },
    "doctor_app_refused": {
        "zh": "Slack 拒绝了 SLACK_APP_TOKEN（{error}）",
        "en": "Slack refused SLACK_APP_TOKEN ({error})",
    },
    "doctor_app_other_app": {
        "zh": "SLACK_APP_TOKEN 属于应用 {app}，SLACK_BOT_TOKEN 属于应用 {bot_app}：两个令牌必须来自同一个应用（同一个工作区）",
        "en": "SLACK_APP_TOKEN belongs to app {app} and SLACK_BOT_TOKEN to app {bot_app}: both must come from the same app (and workspace)",
    },
    "doctor_app_ok": {
        "zh": "Socket Mode 连接可以建立（apps.connections.open）",
        "en": "Socket Mode connections open (apps.connections.open)",
    },
    "doctor_secret_unset": {
        "zh": "没有设置 SLACK_SIGNING_SECRET（Socket Mode 不需要）",
        "en": "SLACK_SIGNING_SECRET is not set (Socket Mode needs none)",
    },
    "doctor_secret_is_token": {
        "zh": "SLACK_SIGNING_SECRET 里是一个令牌：签名密钥在 Basic Information → App Credentials → Signing Secret",
        "en": "SLACK_SIGNING_SECRET holds a token: the signing secret is under Basic Information → App Credentials → Signing Secret",
    },
    "doctor_secret_shape": {
        "zh": "SLACK_SIGNING_SECRET 不像 Slack 的签名密钥（应为 32 个十六进制字符，这里有 {length} 个字符）：从 Basic Information → App Credentials → Signing Secret 重新复制",
        "en": "SLACK_SIGNING_SECRET does not look like Slack's (32 hex characters; this has {length} characters): copy it again from Basic Information → App Credentials → Signing Secret",
    },
    "doctor_secret_ok": {"zh": "已设置（32 个十六进制字符）", "en": "set (32 hex characters)"},
    "doctor_mode_both": {
        "zh": "SLACK_APP_TOKEN 和 SLACK_SIGNING_SECRET 都设置了：serve 会拒绝启动。Socket Mode 只留 SLACK_APP_TOKEN，HTTP 模式只留 SLACK_SIGNING_SECRET",
        "en": "both SLACK_APP_TOKEN and SLACK_SIGNING_SECRET are set: serve refuses to start. Keep SLACK_APP_TOKEN for Socket Mode or SLACK_SIGNING_SECRET for HTTP mode",
    },
    "doctor_mode_neither": {
        "zh": "SLACK_APP_TOKEN（Socket Mode）和 SLACK_SIGNING_SECRET（HTTP 模式）都没有设置：serve 需要其中一个",
        "en": "neither SLACK_APP_TOKEN (Socket Mode) nor SLACK_SIGNING_SECRET (HTTP mode) is set: serve needs one",
    },
    "doctor_mode_socket": {
        "zh": "Socket Mode（SLACK_APP_TOKEN）",
        "en": "Socket Mode (SLACK_APP_TOKEN)",
    },
    "doctor_mode_http": {
        "zh": "HTTP 模式（SLACK_SIGNING_SECRET）",
        "en": "HTTP mode (SLACK_SIGNING_SECRET)",
    },
    "doctor_database": {
        "zh": "{path}：{n} 位候选人，完整性 {check}",
        "en": "{path}: {n} candidates, integrity {check}",
    },
    "doctor_not_writable": {"zh": "无法写入 {path}", "en": "cannot write to {path}"},
    "doctor_database_new": {
        "zh": "；debrief serve 第一次启动时也会创建它",
        "en": "; debrief serve creates it on its first start too",
    },
    "doctor_schema_behind": {
        "zh": "落后 {n} 步：运行任意 debrief 命令即可升级",
        "en": "{n} steps behind: run any debrief command to upgrade",
    },
    "doctor_workspace_new": {
        "zh": "这个数据库还没有被 serve 用过",
        "en": "this database has not been served yet",
    },
    "doctor_workspace_unknown": {
        "zh": "这个数据库服务于 {team}（{team_id}）；没能确认令牌属于哪个工作区",
        "en": "this database serves {team} ({team_id}); the token's workspace is unknown",
    },
    "doctor_workspace_other": {
        "zh": "SLACK_BOT_TOKEN 属于工作区 {team}（{team_id}），但这个数据库服务的是 {served}（{served_id}）：是另一个工作区的令牌吗？一套安装只服务一个工作区：换回那个工作区的令牌，或为新工作区用一个新数据库",
        "en": "SLACK_BOT_TOKEN belongs to workspace {team} ({team_id}), but this database serves {served} ({served_id}): a token of another workspace? One installation serves one workspace: use that workspace's token, or a new database for the new one",
    },
    "doctor_workspace_ok": {
        "zh": "这个数据库服务于 {team}（{team_id}），令牌也属于它",
        "en": "this database serves {team} ({team_id}), as the token does",
    },
    "doctor_retention_off": {
        "zh": "没有设置 DEBRIEF_RETENTION_DAYS：候选人会一直保留。PIPL 和 GDPR 都要求个人信息保存不超过必要的期限：设置保留的天数",
        "en": "DEBRIEF_RETENTION_DAYS is not set: candidates are kept until forgotten. PIPL and the GDPR ask that personal data be kept no longer than needed: set how many days to keep them",
    },
    "doctor_retention_on": {
        "zh": "候选人在面试（没有日期则收录）{days} 天后被忘记；现在到期的：{due} 位",
        "en": "candidates are forgotten {days} days after their interview (or, without a date, their indexing); due now: {due}",
    },
    "doctor_permissions_open": {
        "zh": "这台机器上的其他用户可以读取候选人数据：{fixes}",
        "en": "other users of this machine can read candidate data: {fixes}",
    },
    "doctor_permissions_ok": {
        "zh": "数据库和上传的文件只有所有者能读",
        "en": "the database and uploaded files are readable by their owner alone",
    },
    "doctor_transcripts_unset": {
        "zh": "没有设置 DEBRIEF_TRANSCRIPTS",
        "en": "DEBRIEF_TRANSCRIPTS is not set",
    },
    "doctor_transcripts_unreadable": {
        "zh": "{path} 不是可读的文件夹",
        "en": "{path} is not a readable folder",
    },
    "doctor_transcripts": {
        "zh": "{path}：面试记录 {transcripts} 份，跳过 {skipped} 份，失败 {failing} 份",
        "en": "{path}: {transcripts} transcripts, {skipped} skipped, {failing} failing",
    },
    "doctor_transcripts_first": {"zh": "（第一个：{failure}）", "en": " (first: {failure})"},
    "doctor_webhook_unset": {
        "zh": "没有设置 DEBRIEF_WEBHOOK_URL：录用结论不会发送给 ATS（可用 debrief export 导出）",
        "en": "DEBRIEF_WEBHOOK_URL is not set: hiring decisions are not sent to an ATS"
        " (debrief export writes them)",
    },
    "doctor_webhook_ok": {
        "zh": "录用结论发送到 {receiver}：都已送达",
        "en": "hiring decisions go to {receiver}: all delivered",
    },
    "doctor_webhook_waiting": {
        "zh": "{n} 个录用结论还没有送到 {receiver}：最早的一个已等了 {age}，"
        "尝试 {attempts} 次，最近一次：{error}",
        "en": "{n} hiring decision(s) not delivered to {receiver} yet: the oldest has waited"
        " {age}, {attempts} attempt(s), the last: {error}",
    },
    "doctor_webhook_not_tried": {"zh": "还没有尝试", "en": "not tried yet"},
    "doctor_age_minutes": {"zh": "{n} 分钟", "en": "{n} min"},
    "doctor_age_hours": {"zh": "{n} 小时", "en": "{n} h"},
    "doctor_age_days": {"zh": "{n} 天", "en": "{n} days"},
    "doctor_digest_unset": {
        "zh": "没有设置 DEBRIEF_DIGEST_CHANNEL",
        "en": "DEBRIEF_DIGEST_CHANNEL is not set",
    },
    "doctor_digest": {
        "zh": "下一次在 {when}（{zone}）发到 {channel}；上一次：{last}",
        "en": "next at {when} ({zone}) in {channel}; last sent {last}",
    },
    # Zoom (bot/doctor_zoom.py)
    "doctor_zoom_unset": {
        "zh": "未连接 Zoom（DEBRIEF_ZOOM_ACCOUNT_ID 未设置）",
        "en": "Zoom is not connected (DEBRIEF_ZOOM_ACCOUNT_ID is not set)",
    },
    "doctor_zoom_no_credentials": {
        "zh": "没有 Zoom 应用凭据（DEBRIEF_ZOOM_CLIENT_ID、DEBRIEF_ZOOM_CLIENT_SECRET）："
        "webhook 可用事件自带的下载令牌下载，但 zoom sync 和过期的下载链接无法处理",
        "en": "no Zoom app credentials (DEBRIEF_ZOOM_CLIENT_ID, DEBRIEF_ZOOM_CLIENT_SECRET):"
        " the webhook downloads with each event's download token, but zoom sync and expired"
        " download links cannot work",
    },
    "doctor_zoom_token_failed": {
        "zh": "Zoom 拒绝了应用凭据，拿不到令牌：{error}",
        "en": "Zoom gave no token for the app's credentials: {error}",
    },
    "doctor_zoom_unreachable": {
        "zh": "暂时无法从 Zoom（DEBRIEF_ZOOM_OAUTH_URL）取得令牌：{error}",
        "en": "could not get a token from Zoom (DEBRIEF_ZOOM_OAUTH_URL) just now: {error}",
    },
    "doctor_zoom_token_ok": {
        "zh": "Zoom 应用凭据可用：拿到了令牌",
        "en": "the Zoom app's credentials work: a token was had",
    },
    "doctor_zoom_no_secret_token": {
        "zh": "DEBRIEF_ZOOM_SECRET_TOKEN 未设置：/zoom/events 无法验证 Zoom 的签名，会拒绝所有事件",
        "en": "DEBRIEF_ZOOM_SECRET_TOKEN is not set: /zoom/events cannot check Zoom's"
        " signatures and refuses every event",
    },
    "doctor_zoom_no_channel": {
        "zh": "没有频道可发 Zoom 面试的卡片：设置 DEBRIEF_ZOOM_CHANNEL 或 DEBRIEF_DIGEST_CHANNEL",
        "en": "no channel for the Zoom interviews' cards: set DEBRIEF_ZOOM_CHANNEL or"
        " DEBRIEF_DIGEST_CHANNEL",
    },
    "doctor_zoom_never": {"zh": "从未", "en": "never"},
    "doctor_zoom_poll_off": {"zh": "DEBRIEF_ZOOM_POLL 关闭", "en": "DEBRIEF_ZOOM_POLL off"},
    "doctor_zoom_poll_every": {"zh": "每 {minutes} 分钟", "en": "every {minutes} min"},
    "doctor_zoom_last": {
        "zh": "webhook 上次带来文字记录：{webhook}；轮询（{every}）上次：{poll}",
        "en": "the webhook last brought a transcript: {webhook}; the poll ({every}): {poll}",
    },
}
