"""Asking reviewers (`/candidate 邀请`): the grammar's refusals, the asker's reply, the
reviewer's DM, the status message, a deadline's day, App Home's "you were asked" and a
reviewer's reminder of overdue requests."""

from __future__ import annotations

from store.models import Locale

WORDS: dict[str, dict[Locale, str]] = {
    # asking reviewers (`/candidate 邀请`, handlers/commands.py, asking.py, views/requests.py)
    "request_usage": {
        "zh": "请这样写：`/candidate 邀请 &lt;候选人&gt; @评审… [截止 &lt;时间&gt;]`。"
        "时间可以是 `周五`、`明天`、`12月4日`、`2026-12-04`、`3天`，不写则为两个工作日后。"
        "只写候选人（`/candidate 邀请 &lt;候选人&gt;`）会列出已经邀请的人。",
        "en": "Say: `/candidate request &lt;candidate&gt; @reviewer… [by &lt;when&gt;]`. When:"
        " `Friday`, `tomorrow`, `Dec 4`, `2026-12-04`, `3d`; unsaid, two working days."
        " The candidate alone (`/candidate request &lt;candidate&gt;`) lists who was asked.",
    },
    "request_unescaped": {
        "zh": "没能读出 {mentions} 是谁：Slack 把它当作普通文字发来了。请管理员在应用的 manifest 里给"
        " /candidate 设置 `should_escape: true` 并重新安装应用，然后在 Slack 弹出的列表里选人。未记录任何内容。",
        "en": "Could not tell who {mentions} is: Slack sent it as plain text. Ask an admin to set"
        " `should_escape: true` on /candidate in the app's manifest and reinstall the app, then"
        " pick people from the list Slack offers. Nothing was recorded.",
    },
    "request_not_people": {
        "zh": "{mentions} 不是具体的人：请 @ 要邀请的评审（或一个用户组）。未记录任何内容。",
        "en": "{mentions} is not a person: mention the reviewers to ask (or a user group)."
        " Nothing was recorded.",
    },
    "request_group_unreadable": {
        "zh": "无法读取用户组 {group} 的成员（需要 usergroups:read 权限）：请直接 @ 要邀请的人。未记录任何内容。",
        "en": "Cannot read the members of the user group {group} (usergroups:read): mention the"
        " people to ask instead. Nothing was recorded.",
    },
    "request_too_many": {
        "zh": "一次最多邀请 {limit} 位评审。未记录任何内容。",
        "en": "At most {limit} reviewers at a time. Nothing was recorded.",
    },
    "request_past": {
        "zh": "截止日期已过：{due}。请写今天或以后的日期。未记录任何内容。",
        "en": "Nothing was recorded: that deadline has passed ({due}). Give today or a later day.",
    },
    "request_has_outcome": {
        "zh": "{who} 已有录用结论（{decision}），不再邀请评审。未记录任何内容。",
        "en": "{who} already has a hiring decision ({decision}): no reviewers are asked."
        " Nothing was recorded.",
    },
    "request_nobody": {
        "zh": "没有邀请任何人，未记录任何内容：",
        "en": "Nobody was asked; nothing was recorded:",
    },
    "request_asked": {
        "zh": "已邀请 {who} 对 {candidate} 给出结论，{due}截止。",
        "en": "Asked {who} for their decision on {candidate}, due {due}.",
    },
    "request_where": {
        "zh": "每人都收到了私信；本频道点评讨论串里的状态消息会随结论更新。",
        "en": "Each was sent a DM; the status message in the verdict's thread here follows"
        " their decisions.",
    },
    "request_refused_access": {
        "zh": "未邀请 {who}：没有查看候选人信息的权限（DEBRIEF_ALLOWED_USERS）。",
        "en": "Not asked: {who}: not allowed to see candidates (DEBRIEF_ALLOWED_USERS).",
    },
    "request_refused_pending": {
        "zh": "未邀请 {who}：还在确认谁可以查看候选人信息，请一分钟后再试。",
        "en": "Not asked: {who}: still checking who may see candidates; try again in a minute.",
    },
    "request_refused_foreign": {
        "zh": "未邀请 {who}：不是本工作区的成员（其他组织的 Slack Connect 用户，或 Slack 无法确认）。",
        "en": "Not asked: {who}: not a member of this workspace (a Slack Connect user of"
        " another organisation, or Slack could not say).",
    },
    "request_skipped_decided": {
        "zh": "没有再邀请 {who}：已经给过结论。",
        "en": "Not asked again: {who}: already decided.",
    },
    "request_already": {
        "zh": "没有再私信 {who}：过去 24 小时内已经就这位候选人邀请过。",
        "en": "Not messaged again: {who}: already asked about this candidate in the last 24 hours.",
    },
    "request_limited": {
        "zh": "未邀请 {who}：每人每小时最多邀请 {limit} 位评审，{at} 起可以再邀请。",
        "en": "Not asked: {who}: you may ask at most {limit} reviewers an hour; you can ask"
        " again from {at}.",
    },
    "request_dm_failed": {
        "zh": "无法私信 {who}（{error}）：邀请已记录，讨论串里的状态消息会 @ 他们。",
        "en": "Could not DM {who} ({error}): the request is recorded, and the status message"
        " in the thread mentions them.",
    },
    "request_no_thread": {
        "zh": "本频道里找不到 {who} 的点评讨论串，未记录任何内容。请先 `/candidate 点评 {who}`。",
        "en": "No verdict thread for {who} in this channel; nothing was recorded. Post it"
        " first: `/candidate verdict {who}`.",
    },
    "request_dm": {
        "zh": "{asker} 请你对 *{candidate}* 给出结论，{due}截止。",
        "en": "{asker} asks for your decision on *{candidate}*, due {due}.",
    },
    "request_dm_text": {
        "zh": "{asker} 请你对 {candidate} 给出结论（{due}截止）",
        "en": "{asker} asks for your decision on {candidate} (due {due})",
    },
    "request_dm_hint": {
        "zh": "用下面的按钮给出结论，或在 {channel} 里这位候选人点评的讨论串中回复（例如“通过”）。",
        "en": "Decide with the buttons below, or reply in the thread of the verdict in"
        " {channel} (for example “hire”).",
    },
    "request_dm_reply": {
        "zh": "请在 {channel} 里这位候选人点评的讨论串中回复你的结论（例如“通过”）。",
        "en": "Reply with your decision in the thread of the verdict in {channel}"
        " (for example “hire”).",
    },
    "status_waiting": {"zh": "等待 {who} · {due}截止", "en": "waiting for {who} · due {due}"},
    "status_overdue": {"zh": "已逾期：{who} · {due}截止", "en": "overdue: {who} · was due {due}"},
    "status_decided": {"zh": "已决定：{who}", "en": "decided: {who}"},
    "status_withdrew": {
        "zh": "在看到其他人的结论之后撤回过结论：{who}",
        "en": "withdrew a decision after the others were shown: {who}",
    },
    "status_outcome": {
        "zh": "录用结论已记录，关闭了未完成的请求：{who}",
        "en": "the hiring decision closed the open requests: {who}",
    },
    "status_all_decided": {"zh": "全部已决定", "en": "all decided"},
    "status_more": {"zh": "等另外 {count} 人", "en": "and {count} more"},
    "request_list_title": {
        "zh": "{candidate} 的评审邀请",
        "en": "Reviewers asked about {candidate}",
    },
    "request_list_none": {
        "zh": "还没有邀请过任何评审：`/candidate 邀请 {who} @评审`",
        "en": "Nobody was asked yet: `/candidate request {who} @reviewer`",
    },
    "request_list_line": {
        "zh": "{reviewer} · {asker} 邀请于 {asked} · {due}截止 · {state}",
        "en": "{reviewer} · asked by {asker} on {asked} · due {due} · {state}",
    },
    "request_list_counts": {
        "zh": "等待 {waiting} · 逾期 {overdue} · 已决定 {decided}",
        "en": "{waiting} waiting · {overdue} overdue · {decided} decided",
    },
    "request_state_waiting": {"zh": "等待中", "en": "waiting"},
    "request_state_overdue": {"zh": "*已逾期*", "en": "*overdue*"},
    "request_state_decided": {"zh": "已决定（{decision}）", "en": "decided ({decision})"},
    "request_state_closed": {"zh": "已决定", "en": "decided"},
    "request_state_outcome": {"zh": "已由录用结论关闭", "en": "closed by the hiring decision"},
    # a deadline's day (handlers/deadlines.py): `周五（12月4日）`, `Fri Dec 4`
    "due_day": {"zh": "{weekday}（{month}{day}日）", "en": "{weekday} {month} {day}"},
    "due_day_year": {
        "zh": "{weekday}（{year}年{month}{day}日）",
        "en": "{weekday} {month} {day}, {year}",
    },
    "weekday_0": {"zh": "周一", "en": "Mon"},
    "weekday_1": {"zh": "周二", "en": "Tue"},
    "weekday_2": {"zh": "周三", "en": "Wed"},
    "weekday_3": {"zh": "周四", "en": "Thu"},
    "weekday_4": {"zh": "周五", "en": "Fri"},
    "weekday_5": {"zh": "周六", "en": "Sat"},
    "weekday_6": {"zh": "周日", "en": "Sun"},
    "month_1": {"zh": "1月", "en": "Jan"},
    "month_2": {"zh": "2月", "en": "Feb"},
    "month_3": {"zh": "3月", "en": "Mar"},
    "month_4": {"zh": "4月", "en": "Apr"},
    "month_5": {"zh": "5月", "en": "May"},
    "month_6": {"zh": "6月", "en": "Jun"},
    "month_7": {"zh": "7月", "en": "Jul"},
    "month_8": {"zh": "8月", "en": "Aug"},
    "month_9": {"zh": "9月", "en": "Sep"},
    "month_10": {"zh": "10月", "en": "Oct"},
    "month_11": {"zh": "11月", "en": "Nov"},
    "month_12": {"zh": "12月", "en": "Dec"},
    # the App Home tab's "you were asked" (handlers/listeners/home.py)
    "home_asked": {
        "zh": "请你给结论（{count}），截止最早的在前",
        "en": "You were asked ({count}), earliest deadline first",
    },
    "home_asked_note": {"zh": "{asker} 邀请 · {due}截止", "en": "asked by {asker} · due {due}"},
    "home_asked_overdue": {
        "zh": "*已逾期* · {asker} 邀请 · {due}截止",
        "en": "*overdue* · asked by {asker} · was due {due}",
    },
    # a reviewer's reminder of overdue requests (a DM, bot/remind.py)
    "remind_title": {"zh": "你的结论已逾期", "en": "Your feedback is overdue"},
    "remind_intro": {
        "zh": "有 {count} 位候选人在等你的结论，已过截止时间：",
        "en": "{count} candidate(s) are waiting for your decision past the deadline:",
    },
    "remind_line": {
        "zh": "{asker} 请你给结论 · {due} 截止 · {overdue}",
        "en": "{asker} asked for your decision · due {due} · {overdue}",
    },
    "remind_overdue_one": {"zh": "已逾期 1 天", "en": "1 day overdue"},
    "remind_overdue_days": {"zh": "已逾期 {days} 天", "en": "{days} days overdue"},
    "remind_in_thread": {
        "zh": "请在 {channel} 里这位候选人点评的讨论串中给结论。",
        "en": "Decide in the thread of this candidate's verdict in {channel}.",
    },
    "remind_more": {
        "zh": "还有 {count} 位没有列出：在 Debrief 的主页（Home）可以看到全部。",
        "en": "{count} more not listed here: Debrief's Home tab shows them all.",
    },
    "remind_footer": {
        "zh": "每个工作日最多提醒一次；给出结论后就不再提醒。",
        "en": "At most one reminder a working day; once you decide, no more reminders.",
    },
    "remind_text": {
        "zh": "你有 {count} 位候选人的结论已逾期",
        "en": "Your decision on {count} candidate(s) is overdue",
    },
}
