"""What the command line prints for people, in DEBRIEF_LOCALE: lines for a terminal, its
errors, the database and the system as it reports them, backup, forget and retention."""

from __future__ import annotations

from store.models import Locale

WORDS: dict[str, dict[Locale, str]] = {
    "hit_matched": {"zh": "匹配：{terms}", "en": "matched: {terms}"},
    # a candidate as `debrief show`, `list` and `search` print it (bot/cli_text.py)
    "round_label": {"zh": "轮次", "en": "Round"},
    "date_label": {"zh": "面试日期", "en": "Date"},
    "question_short": {
        "zh": "问题{n}",
        "en": "Q{n}",
    },  # the command line's, as transcripts write it
    # `debrief digest` and `debrief ask` (bot/cli_slack.py)
    "digest_shared": {
        "zh": "没有发：{channel} 与其他组织共享（设置 DEBRIEF_ALLOW_SHARED_CHANNELS=true 才会发到这里）",
        "en": "not posted: {channel} is shared with another organisation"
        " (DEBRIEF_ALLOW_SHARED_CHANNELS=true allows it)",
    },
    "ask_no_decide": {
        "zh": "debrief ask 不记录录用结论：请在 Slack 里点评的频道用 /candidate 结论",
        "en": "debrief ask does not record hiring decisions: type /candidate decide in Slack,"
        " in the verdict's channel",
    },
    "ask_no_request": {
        "zh": "debrief ask 不邀请评审：请在 Slack 里点评的频道用 /candidate 邀请",
        "en": "debrief ask does not ask reviewers: type /candidate request in Slack,"
        " in the verdict's channel",
    },
    # the command line (bot/cli_text.py, bot/ops.py, bot/cli_slack.py): lines for a terminal
    "source": {"zh": "来源", "en": "Source"},
    "open_mark": {"zh": "【{reason}】", "en": "[{reason}]"},
    "with_verdict": {"zh": "有点评", "en": "verdict"},
    "without_verdict": {"zh": "无点评", "en": "no verdict"},
    "no_candidates": {"zh": "还没有候选人", "en": "no candidates yet"},
    "no_position": {
        "zh": "没有岗位为“{position}”的候选人",
        "en": "no candidates for the position {position!r}",
    },
    "more_offset": {"zh": "：--offset {last} 看后面的", "en": ": --offset {last} for more"},
    "no_matches": {"zh": "没有匹配的结果", "en": "no matches"},
    "index_summary": {
        "zh": "已索引 {indexed}，未变 {unchanged}，已移除 {removed}，失败 {failed}",
        "en": "{indexed} indexed, {unchanged} unchanged, {removed} removed, {failed} failed",
    },
    "progress_indexing": {"zh": "索引中", "en": "indexing"},
    "progress_rate": {"zh": "每秒 {n} 个文件", "en": "{n} files/s"},
    "progress_left": {"zh": "剩余", "en": "ETA"},
    "index_skipped": {"zh": "，跳过 {skipped}", "en": ", {skipped} skipped"},
    "skipped_file": {"zh": "  跳过：{path}：{reason}", "en": "  skipped: {path}: {reason}"},
    "failed_file": {"zh": "  失败：{path}：{reason}", "en": "  failed: {path}: {reason}"},
    # a file indexed with something missing (store/transcripts/warnings.py's codes)
    "warned_file": {"zh": "  注意：{path}：{what}", "en": "  note: {path}: {what}"},
    "warning_no_questions": {"zh": "没有找到问题", "en": "no questions found"},
    "warning_questions_unread": {
        "zh": "未能从文件中读出问题",
        "en": "questions could not be read from this file",
    },
    "warning_no_summary": {"zh": "没有面试总结", "en": "no summary"},
    "warning_no_verdict": {"zh": "没有点评", "en": "no verdict"},
    "no_audit": {"zh": "没有审计记录", "en": "no audit entries"},
    "backed_up": {
        "zh": "已把 {src} 备份到 {dest}（{size}）",
        "en": "backed up {src} to {dest} ({size})",
    },
    "exported": {
        "zh": "已把 {n} 位候选人导出到 {path}",
        "en": "exported {n} candidate(s) to {path}",
    },
    "forgot": {
        "zh": "已忘记 {id}：删除了记录，以及 {parts}。\n它的文件会一直被忽略，直到文件改变或执行"
        " `debrief forget --restore {id}`。",
        "en": "forgot {id}: removed the transcript, {parts}.\n"
        "Its file stays forgotten until it changes or `debrief forget --restore {id}` is given.",
    },
    "removed_part": {"zh": "{what} {n} 条", "en": "{n} {what}"},
    "restored_indexed": {"zh": "{id} 已恢复：已重新索引", "en": "{id} restored: indexed again"},
    "restored_later": {
        "zh": "{id} 已恢复：文件出现时会被索引",
        "en": "{id} restored: will be indexed when its file is",
    },
    "digest_nothing": {
        "zh": "{day}：没有要说的，不会发摘要",
        "en": "{day}: nothing to say; no digest would be posted",
    },
    "digest_sent": {"zh": "摘要已发到 {channel}", "en": "digest posted in {channel}"},
    "digest_empty": {
        "zh": "今天没有要说的：什么也没发",
        "en": "nothing to say today: nothing posted",
    },
    "digest_already": {
        "zh": "今天的摘要已经发过（或正在发）",
        "en": "today's digest was already posted (or is being posted)",
    },
    # `debrief remind`: one line a reviewer, then one a candidate
    "remind_none": {
        "zh": "{day}：没有逾期的请求，不会提醒任何人",
        "en": "{day}: no overdue requests; nobody would be reminded",
    },
    "remind_status_sent": {"zh": "{reviewer}：已提醒", "en": "{reviewer}: reminded"},
    "remind_status_already_sent": {
        "zh": "{reviewer}：今天已经提醒过（或正在提醒）",
        "en": "{reviewer}: already reminded today (or being reminded)",
    },
    "remind_status_would_send": {
        "zh": "{reviewer}：会被提醒",
        "en": "{reviewer}: would be reminded",
    },
    "remind_status_refused": {
        "zh": "{reviewer}：不提醒：此人不能查看候选人信息（DEBRIEF_ALLOWED_USERS，或不属于本工作区）",
        "en": "{reviewer}: not reminded: may not see candidates (DEBRIEF_ALLOWED_USERS,"
        " or not of this workspace)",
    },
    "remind_status_failed": {
        "zh": "{reviewer}：提醒失败（见日志），稍后会再试",
        "en": "{reviewer}: the reminder failed (see the log); a later run tries again",
    },
    "remind_item": {
        "zh": "  {who} · {asker} 请求 · {due} 截止 · {overdue}",
        "en": "  {who} · asked by {asker} · due {due} · {overdue}",
    },
    "cli_remind_no_token": {
        "zh": "没有设置 SLACK_BOT_TOKEN：发提醒需要机器人令牌（xoxb-…）",
        "en": "SLACK_BOT_TOKEN is not set: the bot token (xoxb-…) is required to send reminders",
    },
    "never": {"zh": "从未", "en": "never"},
    # what `stats` counts and `forget` removes
    "n_candidates": {"zh": "候选人", "en": "candidates"},
    "n_questions": {"zh": "问题", "en": "questions"},
    "n_unanswered": {"zh": "未回答", "en": "unanswered"},
    "n_unrecorded": {"zh": "未记录回答", "en": "answer not recorded"},
    "n_questions_unread": {"zh": "未能读出问题的面试", "en": "interviews with questions unread"},
    "n_decisions": {"zh": "评审结论", "en": "decisions"},
    "n_followups": {"zh": "追问回答", "en": "followups"},
    "n_replies": {"zh": "讨论串回复", "en": "replies"},
    "n_posts": {"zh": "频道帖子", "en": "posts"},
    "n_fulltext_rows": {"zh": "全文索引", "en": "fulltext rows"},
    "stat_database": {"zh": "数据库", "en": "database"},
    "stat_schema": {"zh": "数据库版本", "en": "schema"},
    "stat_index_run": {"zh": "上次索引", "en": "last index run"},
    "stat_digest": {"zh": "上次摘要", "en": "last digest"},
    "index_run": {
        "zh": "{at}：索引 {indexed}，未变 {unchanged}，移除 {removed}，失败 {failed}，跳过 {skipped}",
        "en": "{at}: {indexed} indexed, {unchanged} unchanged, {removed} removed,"
        " {failed} failed, {skipped} skipped",
    },
    # what the command line prints: its errors (`错误：…`), said in DEBRIEF_LOCALE
    "error_line": {"zh": "错误：{message}", "en": "Error: {message}"},
    "posted_in": {
        "zh": "（已发到 {channel}，所有人可见）",
        "en": "(posted in {channel} for everyone)",
    },
    "cli_unknown_command": {
        "zh": "没有 {name} 这个命令：这里只回答 /candidate",
        "en": "unknown command {name}: only /candidate is served",
    },
    "cli_no_match": {
        "zh": "没有与“{query}”匹配的候选人",
        "en": "no candidate matches {query!r}",
    },
    "cli_ambiguous": {
        "zh": "有 {count} 位候选人与“{query}”匹配，请说明是哪一位：\n{lines}",
        "en": "{count} candidates match {query!r}; say which:\n{lines}",
    },
    "cli_empty_query": {
        "zh": "请写上要搜索的词，例如 debrief search 分布式",
        "en": "say what to search for, for example: debrief search TensorFlow",
    },
    "cli_bad_since": {
        "zh": "--since “{when}” 不是时间：请写 7d、24h、30m、today（今天）、yesterday（昨天），"
        "或日期如 2026-11-30",
        "en": "--since {when!r} is not a time: say 7d, 24h, 30m, today, yesterday,"
        " or a date such as 2026-11-30",
    },
    "cli_not_forgotten": {
        "zh": "{id} 没有被忘记，无需恢复",
        "en": "{id} is not forgotten",
    },
    "cli_forget_unknown": {
        "zh": "没有编号为“{id}”的候选人（forget 需要完整的编号，见 debrief list）",
        "en": "no candidate {id!r} (forget takes an exact id; see debrief list)",
    },
    "cli_digest_mode": {"zh": "请写 --post 或 --dry-run", "en": "say --post or --dry-run"},
    "cli_digest_no_channel": {
        "zh": "没有设置 DEBRIEF_DIGEST_CHANNEL：请写上接收摘要的频道 ID",
        "en": "DEBRIEF_DIGEST_CHANNEL is not set: say which channel ID gets the digest",
    },
    "cli_digest_no_token": {
        "zh": "没有设置 SLACK_BOT_TOKEN：发帖需要机器人令牌（xoxb-…）",
        "en": "SLACK_BOT_TOKEN is not set: the bot token (xoxb-…) is required to post",
    },
    "cli_cannot_listen": {
        "zh": "无法在 {host}:{port} 上监听：{reason}",
        "en": "cannot listen on {host}:{port}: {reason}",
    },
    "cli_start_bug": {
        "zh": "无法启动：程序内部出错（{detail}；回溯见上方日志）",
        "en": "cannot start: an internal error ({detail}; traceback above)",
    },
    "cli_migrate_from": {
        "zh": "--db 应为要复制的 SQLite 文件，而不是 {source}",
        "en": "--db must be the SQLite file to copy from, not {source}",
    },
    "cli_migrate_to": {
        "zh": "--to 应为 postgresql:// 地址，而不是 “{target}”",
        "en": "--to must be a postgresql:// URL, not {target!r}",
    },
    "cli_migrate_differ": {
        "zh": "{tables} 的行数不一致：先不要切换 DEBRIEF_DB",
        "en": "the counts differ in {tables}: do not switch DEBRIEF_DB yet",
    },
    "migrate_mismatch": {"zh": "不一致", "en": "MISMATCH"},
    "migrate_done": {
        "zh": "已把 {source} 复制到 {target}，行数一致：把 DEBRIEF_DB 设为这个地址",
        "en": "copied {source} to {target}; the counts match: set DEBRIEF_DB to the URL",
    },
    # a request from a workspace without Debrief (bot/app.py, Bolt's authorize step)
    "not_installed": {
        "zh": "Debrief 还没有安装到这个工作区，或已被卸载。请工作区管理员重新安装。",
        "en": "Debrief is not installed in this workspace, or was removed. Ask a workspace admin"
        " to install it again.",
    },
    # the database, as the command line reports it (what a driver says is quoted as said)
    "store_no_database": {
        "zh": "{path} 没有数据库：先运行 debrief index，或设置 DEBRIEF_DB",
        "en": "no database at {path}: run 'debrief index' or set DEBRIEF_DB",
    },
    "store_disk_full": {
        "zh": "磁盘已满：无法写入 {path}（{where} 所在的磁盘没有空间了）；没有留下写了一半的数据："
        "腾出空间后再运行",
        "en": "disk full: cannot write to {path} (no space left in {where});"
        " nothing half-written was kept: free some space and run again",
    },
    "store_server_full": {
        "zh": "磁盘已满：{path} 的 PostgreSQL 服务器没有空间了；没有留下写了一半的数据："
        "腾出空间后再运行",
        "en": "disk full: the PostgreSQL server at {path} has no space left;"
        " nothing half-written was kept: free some space and run again",
    },
    "store_busy": {
        "zh": "数据库正忙（另一个进程正在写入）：请稍后再试。数据库报告：{detail}",
        "en": "{detail}",
    },
    "store_unreachable": {
        "zh": "连不上数据库服务器：请检查 DEBRIEF_DB 的地址，以及服务器是否在运行。数据库报告：{detail}",
        "en": "{detail}",
    },
    "store_newer_schema": {
        "zh": "这个数据库由更新版本的 Debrief 写入，本版本打开它可能会损坏它："
        "请升级 Debrief，或恢复用本版本做的备份。数据库报告：{detail}",
        "en": "{detail}",
    },
    "store_unstorable": {
        "zh": "数据库无法保存这些数据，已撤销这次写入。数据库报告：{detail}",
        "en": "{detail}",
    },
    "store_error": {"zh": "数据库出错。数据库报告：{detail}", "en": "{detail}"},
    # what the operating system says, without words of ours for its error code (the rest:
    # store/transcripts/words.py)
    "os_other": {"zh": "系统报告：{detail}", "en": "{detail}"},
    # `debrief backup`, `forget`, `retention` (bot/ops.py, bot/erasure.py)
    "backup_exists": {
        "zh": "{path} 已存在：换一个新文件名，或加上 --force 覆盖它",
        "en": "{path} already exists: choose a new file, or add --force to replace it",
    },
    "backup_no_folder": {
        "zh": "文件夹 {folder} 不存在：先创建它（mkdir -p {folder}），或换一个路径",
        "en": "the folder {folder} does not exist: create it first (mkdir -p {folder}) or choose another path",
    },
    "export_symlink": {
        "zh": "{path} 是一个符号链接：没有写入（也没有改动它指向的文件）。请给出文件本身的路径",
        "en": "{path} is a symbolic link: nothing written (nor what it points to); name the file itself",
    },
    "forget_confirm": {
        "zh": "忘记 {id}：删除这份面试记录，以及关于这位候选人的所有评审结论、讨论和帖子记录。无法撤销。继续吗？",
        "en": "Forget {id}: erase the transcript and every decision, reply and post recorded about them. This cannot be undone. Go on?",
    },
    "forget_kept": {"zh": "什么也没有删除：{id} 保持不变", "en": "nothing erased: {id} is kept"},
    "forget_already": {
        "zh": "{id} 已经被忘记了，没有要删除的。要恢复它的面试记录：debrief forget --restore {id}",
        "en": "{id} is already forgotten: nothing left to erase. To bring its transcript back: debrief forget --restore {id}",
    },
    "retention_unset": {
        "zh": "没有设置 DEBRIEF_RETENTION_DAYS：候选人会一直保留。可以用 --days N 预览一个保留期限",
        "en": "DEBRIEF_RETENTION_DAYS is not set: candidates are kept until forgotten. Preview a policy with --days N",
    },
    "retention_mode": {
        "zh": "请加上 --dry-run（只列出）或 --apply（忘记他们）",
        "en": "say --dry-run (list them) or --apply (forget them)",
    },
    "retention_line": {"zh": "{id}  {basis} {when}", "en": "{id}  {basis} {when}"},
    "retention_basis_interview": {"zh": "面试于", "en": "interviewed"},
    "retention_basis_indexed": {"zh": "收录于", "en": "indexed"},
    "retention_basis_removed": {"zh": "文件移除于", "en": "file removed"},
    "retention_none": {
        "zh": "没有超过 {days} 天（{day} 之前）的候选人：没有要忘记的",
        "en": "no candidate is older than {days} days (before {day}): nothing to forget",
    },
    "retention_would": {
        "zh": "以上 {n} 位候选人超过 {days} 天（{day} 之前），会被忘记：加上 --apply 执行",
        "en": "{n} candidates older than {days} days (before {day}) would be forgotten: --apply forgets them",
    },
    "retention_done": {
        "zh": "已忘记 {n} 位超过 {days} 天（{day} 之前）的候选人，审计里记为 forget:retention",
        "en": "forgot {n} candidates older than {days} days (before {day}); the audit says forget:retention",
    },
    "doctor_failed": {"zh": "{n} 项未通过", "en": "{n} failed"},
    "doctor_passed": {"zh": "全部通过", "en": "all checks passed"},
    "serve_bot_refused": {
        "zh": "无法启动：{url} 的 Slack 拒绝了 SLACK_BOT_TOKEN（{error}）：重新安装应用，或重新复制 Bot User OAuth Token",
        "en": "cannot start: Slack at {url} refused SLACK_BOT_TOKEN ({error}): reinstall the app or copy the Bot User OAuth Token again",
    },
    "serve_install_needs_port": {
        "zh": "无法启动：安装到多个工作区时，Socket Mode 也要用 --port 提供安装页面（/slack/install 和 /slack/oauth_redirect）",
        "en": "cannot start: installed in many workspaces, Socket Mode needs --port too, to serve the install pages (/slack/install and /slack/oauth_redirect)",
    },
    "serve_other_workspace": {
        "zh": "无法启动：SLACK_BOT_TOKEN 属于工作区 {team}（{team_id}），但这个数据库服务的是 {served}（{served_id}）。一套安装只服务一个工作区：用那个工作区的令牌，或为新工作区另设一个数据库（DEBRIEF_DB）",
        "en": "cannot start: SLACK_BOT_TOKEN belongs to workspace {team} ({team_id}), but this database serves {served} ({served_id}). One installation serves one workspace: use that workspace's token, or another database (DEBRIEF_DB) for the new one",
    },
    "serve_app_refused": {
        "zh": "无法启动：{url} 的 Slack 拒绝了 SLACK_APP_TOKEN（{error}）：在 Basic Information → App-Level Tokens 生成一个带 connections:write 的新令牌",
        "en": "cannot start: Slack at {url} refused SLACK_APP_TOKEN ({error}): generate a new app-level token with connections:write under Basic Information → App-Level Tokens",
    },
    # debrief zoom sync (bot/cli_zoom.py)
    "cli_zoom_bad_date": {
        "zh": "--from 应为日期，例如 2026-11-01（收到 {value}）",
        "en": "--from must be a date such as 2026-11-01 (got {value})",
    },
    "cli_zoom_not_set": {
        "zh": "没有连接 Zoom：设置 DEBRIEF_ZOOM_ACCOUNT_ID、DEBRIEF_ZOOM_CLIENT_ID 和"
        " DEBRIEF_ZOOM_CLIENT_SECRET（安装在多个工作区时，由工作区管理员在主页标签中设置）",
        "en": "Zoom is not connected: set DEBRIEF_ZOOM_ACCOUNT_ID, DEBRIEF_ZOOM_CLIENT_ID and"
        " DEBRIEF_ZOOM_CLIENT_SECRET (installed in many workspaces, each workspace's admins"
        " set them in App Home)",
    },
    "cli_zoom_no_credentials": {
        "zh": "zoom sync 需要 Zoom 应用的凭据：设置 DEBRIEF_ZOOM_CLIENT_ID 和"
        " DEBRIEF_ZOOM_CLIENT_SECRET",
        "en": "zoom sync needs the Zoom app's credentials: set DEBRIEF_ZOOM_CLIENT_ID and"
        " DEBRIEF_ZOOM_CLIENT_SECRET",
    },
    "cli_zoom_synced": {
        "zh": "Zoom：{meetings} 场有文字记录的会议，其中 {passed} 场按主题不是面试（未下载）；"
        "新取 {queued} 份，{seen} 份之前已经知道（已取或正在取）。",
        "en": "Zoom: {meetings} meetings with a transcript, {passed} of them not interviews"
        " by their topic (not downloaded); {queued} transcripts to take, {seen} known before"
        " (taken or under way).",
    },
    "cli_zoom_taken": {
        "zh": "已收录 {count} 场面试：{ids}",
        "en": "Indexed {count} interviews: {ids}",
    },
    "cli_zoom_refused": {
        "zh": "{count} 份文字记录不是面试，未收录（已告知频道）。",
        "en": "{count} transcripts are not interviews and were not indexed (the channel was told).",
    },
    "cli_zoom_failed": {
        "zh": "{count} 份文字记录多次尝试后仍无法从 Zoom 取得（已告知频道）。",
        "en": "{count} transcripts could not be fetched from Zoom after several tries"
        " (the channel was told).",
    },
    "cli_zoom_waiting": {
        "zh": "{count} 份文字记录稍后再试：debrief serve 或下次 zoom sync 会继续。",
        "en": "{count} transcripts are to be tried again later: debrief serve, or the next"
        " zoom sync, goes on with them.",
    },
    "cli_zoom_no_slack": {
        "zh": "SLACK_BOT_TOKEN 未设置：面试已收录，但卡片没有发到 Slack。",
        "en": "SLACK_BOT_TOKEN is not set: the interviews are indexed, but no card was posted"
        " in Slack.",
    },
    "cli_zoom_list_failed": {
        "zh": "无法列出 Zoom 账号 {account} 的录制：{reason}",
        "en": "Could not list the recordings of Zoom account {account}: {reason}",
    },
}
