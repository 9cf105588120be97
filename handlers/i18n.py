"""The bot's own words, in Chinese and English: the one catalogue that Slack (handlers/)
and the command line (bot/cli_text.py) both read, one entry a word. Importing it loads
no Bolt. Transcript text is never translated."""

from __future__ import annotations

from collections.abc import Mapping

from store.models import UNANSWERED_LABELS
from store.models import Locale as Locale
from store.transcripts.errors import code_of

_STRINGS: dict[str, dict[Locale, str]] = {
    "help_title": {"zh": "Debrief 使用说明", "en": "How to use Debrief"},
    "help_body": {
        "zh": (
            "*/candidate &lt;候选人&gt;* 候选人总结（匹配多人时给出选择）\n"
            "*/candidate 总结 &lt;候选人&gt;* 岗位、年限、简介、总结、作答情况、点评要点、评审意见\n"
            "*/candidate 未回答 [&lt;候选人&gt;]* 未回答的问题及考察目标；不写候选人则列出所有有未回答问题的人\n"
            "*/candidate 点评 &lt;候选人&gt;* 把点评发到频道，评审在帖子下的讨论串里回复；加上“全文”（ `/candidate 点评 &lt;候选人&gt; 全文` ）只给你自己看\n"
            "*/candidate 问题 &lt;候选人&gt; &lt;n&gt;* 第 n 题的完整问题、考察目标和回答\n"
            "*/candidate 搜索 &lt;关键词&gt;* 全文搜索，最相关的在前\n"
            "*/candidate 列表 [岗位]* 候选人列表，最新的在前\n"
            "*/candidate 结论 &lt;候选人&gt; 录用|不录用|待定 [备注]* 记录录用结论（仅限"
            " DEBRIEF_DECIDERS 中的人），发在本频道该候选人点评的讨论串里\n"
            "*/candidate 邀请 &lt;候选人&gt; @评审… [截止 &lt;时间&gt;]* 私信请评审给结论"
            "（默认两个工作日内），点评讨论串里的状态消息随结论更新；不写评审则列出已邀请的人\n"
            "*/candidate 帮助* 显示本说明\n"
            "&lt;候选人&gt; 可以是编号、编号前缀（如 `000` ）或能唯一匹配的词（如岗位名）。"
            "英文子命令同样可用：summary、unanswered、verdict、question、search、list、decide、"
            "request、help。"
        ),
        "en": (
            "*/candidate &lt;who&gt;* a candidate's summary (a pick list when several match)\n"
            "*/candidate summary &lt;who&gt;* position, years, profile, summary, answered/unanswered,"
            " the verdict's gist and what reviewers said\n"
            "*/candidate unanswered [&lt;who&gt;]* unanswered questions with what each assesses;"
            " without &lt;who&gt;: everyone with unanswered questions\n"
            "*/candidate verdict &lt;who&gt;* posts the reviewer's verdict in the channel;"
            " reviewers reply in its thread (`/candidate verdict &lt;who&gt; full`: only for you)\n"
            "*/candidate question &lt;who&gt; &lt;n&gt;* question n in full: question, goal and answer\n"
            "*/candidate search &lt;words&gt;* full-text search, best first\n"
            "*/candidate list [position]* candidates, newest first\n"
            "*/candidate decide &lt;who&gt; hire|reject|hold [note]* records the hiring decision"
            " (DEBRIEF_DECIDERS only) in the thread of the candidate's verdict in this channel\n"
            "*/candidate request &lt;who&gt; @reviewer… [by &lt;when&gt;]* asks reviewers for"
            " their decision in a DM (due in two working days unless said); a status message in"
            " the verdict's thread follows their decisions; without reviewers: who was asked\n"
            "*/candidate help* this help\n"
            "&lt;who&gt; is an id, an id prefix (such as `000`) or words that match one candidate."
            " Chinese subcommands work too: 总结、未回答、点评、问题、搜索、列表、结论、邀请、帮助."
        ),
    },
    "empty_command": {
        "zh": "请告诉我要查哪位候选人，或者用下面的子命令：",
        "en": "Tell me which candidate to look up, or use one of these subcommands:",
    },
    "not_found": {
        "zh": "没有找到与“{query}”匹配的候选人。可以试试编号前缀、岗位名，或者搜索： `/candidate 搜索 {query}`",
        "en": "No candidate matches “{query}”. Try an id prefix, a position, or a search:"
        " `/candidate search {query}`",
    },
    "pick": {
        "zh": "有 {count} 位候选人与“{query}”匹配，请选择：",
        "en": "{count} candidates match “{query}”. Pick one:",
    },
    "pick_more": {
        "zh": "只显示前 {shown} 位，请说得更具体些。",
        "en": "Showing the first {shown}; be more specific to narrow it down.",
    },
    "need_who": {
        "zh": "请写上候选人，例如 `/candidate {cmd} 000`",
        "en": "Say which candidate, for example `/candidate {cmd} 000`",
    },
    "need_number": {
        "zh": "{who} 共有 {count} 道题。请写上题号，例如 `/candidate 问题 {who} 2`",
        "en": "{who} has {count} questions. Say which one, for example"
        " `/candidate question {who} 2`",
    },
    "no_such_question": {
        "zh": "{who} 没有第 {n} 题（共 {count} 题）。第一题： `/candidate 问题 {who} 1`",
        "en": "{who} has no question {n} (there are {count}); the first: `/candidate question {who} 1`",
    },
    "need_words": {
        "zh": "请写上要搜索的词，例如 `/candidate 搜索 分布式`",
        "en": "Say what to search for, for example `/candidate search TensorFlow`.",
    },
    "no_hits": {
        "zh": "没有找到包含“{query}”的面试记录。",
        "en": "No transcript contains “{query}”.",
    },
    "hits_title": {"zh": "搜索“{query}”", "en": "Search: “{query}”"},
    "hit_matched": {"zh": "匹配：{terms}", "en": "matched: {terms}"},
    "hit_partial": {"zh": "部分匹配：只有 {terms}", "en": "partly matched: only {terms}"},
    "term_separator": {"zh": "、", "en": ", "},
    "hits_title_newest": {
        "zh": "搜索“{query}”（最新的在前）",
        "en": "Search: “{query}” (newest first)",
    },
    # a word and what it labels: `考察目标：…` / `Assesses: …`; a heading: `点评：` / `Verdict:`
    "labelled": {"zh": "{label}：{text}", "en": "{label}: {text}"},
    "heading": {"zh": "{label}：", "en": "{label}:"},
    "with_reason": {"zh": "{n}（{reason}）", "en": "{n} ({reason})"},
    "years": {"zh": "{years} 年经验", "en": "{years} yrs"},
    "years_unknown": {"zh": "年限未知", "en": "years unknown"},
    "position_unknown": {"zh": "岗位未知", "en": "position unknown"},
    "profile": {"zh": "简介", "en": "Profile"},
    "summary": {"zh": "面试总结", "en": "Summary"},
    # who and when, from the transcript's header (names are shown as the file writes them)
    "interviewers_label": {"zh": "面试官", "en": "Interviewers"},
    "round_label": {"zh": "轮次", "en": "Round"},
    "date_label": {"zh": "面试日期", "en": "Date"},
    "name_separator": {"zh": "、", "en": ", "},
    "no_decisions": {"zh": "还没有结论。", "en": "No decisions yet."},
    "read_full_summary": {"zh": "完整简介和总结", "en": "Full profile and summary"},
    "open_question": {"zh": "问题{n}（{reason}）：{words}", "en": "Q{n} ({reason}): {words}"},
    "answered": {
        "zh": "已回答 {answered} 题，未回答 {open} 题（共 {total} 题）",
        "en": "{answered} answered, {open} unanswered ({total} questions)",
    },
    "verdict": {"zh": "点评", "en": "Verdict"},
    "verdict_gist": {"zh": "点评要点", "en": "Verdict, in short"},
    "no_verdict": {"zh": "这份记录没有点评。", "en": "This transcript has no verdict."},
    "unanswered_title": {"zh": "未回答的问题", "en": "Unanswered questions"},
    "none_unanswered": {
        "zh": "{who} 的问题都回答了。",
        "en": "{who} answered every question.",
    },
    "goal": {"zh": "考察目标", "en": "Assesses"},
    "answer": {"zh": "回答", "en": "Answer"},
    "no_answer": {"zh": "（未作答）", "en": "(no answer)"},
    # why a question is unanswered, beside it
    **{f"reason_{reason}": label for reason, label in UNANSWERED_LABELS.items()},
    "question": {"zh": "问题 {n}", "en": "Question {n}"},
    "question_short": {
        "zh": "问题{n}",
        "en": "Q{n}",
    },  # the command line's, as transcripts write it
    "question_part": {"zh": "（续 {part}/{parts}）", "en": "(part {part}/{parts})"},
    "overview_title": {"zh": "有未回答问题的候选人", "en": "Candidates with unanswered questions"},
    "overview_line": {"zh": "{open} 题未回答", "en": "{open} unanswered"},
    "overview_none": {
        "zh": "所有候选人都回答了全部问题。",
        "en": "Every candidate answered every question.",
    },
    "list_title": {"zh": "候选人列表", "en": "Candidates"},
    "list_title_position": {"zh": "候选人列表：{position}", "en": "Candidates: {position}"},
    "list_empty": {"zh": "还没有候选人。", "en": "No candidates yet."},
    "list_empty_position": {
        "zh": "没有岗位为“{position}”的候选人。可以用 `/candidate 列表` 看所有岗位。",
        "en": "No candidate for the position “{position}”. `/candidate list` shows every position.",
    },
    "did_you_mean": {"zh": "你是想用 `{example}` 吗？", "en": "Did you mean `{example}`?"},
    "list_page": {
        "zh": "第 {first}–{last} 位，共 {total} 位",
        "en": "{first}–{last} of {total}",
    },
    "next_page": {"zh": "下一页", "en": "Next page"},
    "prev_page": {"zh": "上一页", "en": "Previous page"},
    "questions_count": {
        "zh": "{total} 题，{open} 题未回答",
        "en": "{total} questions, {open} unanswered",
    },
    "open": {"zh": "查看", "en": "Open"},
    "post_in_channel": {"zh": "发到频道", "en": "Post in channel"},
    "posted": {"zh": "已发到频道。", "en": "Posted in the channel."},
    "see_question": {
        "zh": "完整回答： `/candidate 问题 {who} {n}`",
        "en": "Full answer: `/candidate question {who} {n}`",
    },
    "more_items": {
        "zh": "还有 {count} 项未显示。",
        "en": "{count} more not shown.",
    },
    "reviewers": {"zh": "评审意见", "en": "Reviewers"},
    "tally": {"zh": "结论", "en": "Tally:"},
    "notes": {"zh": "最新讨论", "en": "Latest notes"},
    "followup": {"zh": "追问回答（{who}）", "en": "Follow-up answer ({who})"},
    "verdict_thread_hint": {
        "zh": "评审请在本帖的讨论串里回复：以“通过 / 不通过 / 待定 / 强烈推荐 / 强烈不推荐”开头记录结论，"
        "“问题2：…”记录追问回答。",
        "en": "Reviewers: reply in this thread. Start with hire / no hire / hold / strong hire /"
        " strong no hire to record a decision; “Q2: …” records a follow-up answer.",
    },
    "posted_by": {"zh": "由 {user} 发布", "en": "Posted by {user}"},
    "not_in_channel": {
        "zh": "我还不在这个频道里，无法发帖。请先邀请我： `/invite @Debrief`",
        "en": "I am not in this channel, so I cannot post here. Invite me with `/invite @Debrief`.",
    },
    "cannot_post_dm": {
        "zh": "我不能在私信或群组私信里发帖（私信里无法邀请机器人）。"
        "要发给大家，请在我所在的频道里使用 /candidate；这里的回复只有你能看到。",
        "en": "I cannot post in a direct message or group DM (a bot cannot be invited there)."
        " To share this, use /candidate in a channel I am in; replies here are only for you.",
    },
    "restricted_action": {
        "zh": "这个频道只允许管理员发帖，我无法在这里发帖。请让管理员放开发帖权限，或换一个频道。",
        "en": "Only admins may post in this channel, so I cannot post here. Ask an admin to allow"
        " posting, or use another channel.",
    },
    "verdict_private": {
        "zh": "只给你看完整点评： `/candidate 点评 {who} 全文`",
        "en": "To read the whole verdict privately: `/candidate verdict {who} full`",
    },
    # channels shared with another organisation (Slack Connect, issue 34; handlers/shared.py)
    "shared_channel_refused": {
        "zh": "这个频道与其他组织共享（Slack Connect），其他公司的人也能看到这里的消息，"
        "所以我不会把候选人信息发在这里。请换一个只有本公司的人的频道；"
        "如确需在共享频道发帖，请管理员在 Debrief 的设置里允许。",
        "en": "This channel is shared with another organisation (Slack Connect): people of"
        " another company read it, so I do not post candidate information here. Use a channel"
        " of your own organisation; to post in shared channels, an admin may allow it in"
        " Debrief's settings.",
    },
    "shared_channel_unknown": {
        "zh": "无法向 Slack 确认这个频道是否与其他组织共享，为安全起见没有在这里发帖。请稍后再试。",
        "en": "Slack could not tell me whether this channel is shared with another"
        " organisation, so to be safe I did not post here. Please try again in a moment.",
    },
    "shared_only_you": {
        "zh": "下面的内容只有你能看到。",
        "en": "What follows is only for you.",
    },
    "shared_decision_kept": {
        "zh": "你的结论已记录，但没有发在讨论串里。",
        "en": "Your decision is recorded, but it is not posted in the thread.",
    },
    "settings_shared": {
        "zh": "与其他组织共享的频道",
        "en": "Channels shared with other organisations",
    },
    "settings_shared_option": {
        "zh": "允许把候选人信息发到与其他组织共享的频道（Slack Connect）",
        "en": "Post candidate information in channels shared with another organisation"
        " (Slack Connect)",
    },
    "settings_shared_hint": {
        "zh": "默认不允许：点评、结论、每日摘要和上传文件的总结不会发到其他公司也能看到的频道。",
        "en": "Off by default: verdicts, decisions, the daily digest and the summaries of"
        " uploaded files are not posted where another company reads them.",
    },
    "digest_shared": {
        "zh": "没有发：{channel} 与其他组织共享（设置 DEBRIEF_ALLOW_SHARED_CHANNELS=true 才会发到这里）",
        "en": "not posted: {channel} is shared with another organisation"
        " (DEBRIEF_ALLOW_SHARED_CHANNELS=true allows it)",
    },
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
    "continue": {
        "zh": "继续（从第 {first} 部分起，共 {total} 部分）",
        "en": "Continue (from part {first} of {total})",
    },
    "read_verdict": {"zh": "完整点评", "en": "Whole verdict"},
    "error": {
        "zh": "抱歉，出了点问题，已记录下来。请稍后再试。",
        "en": "Sorry, something went wrong on my side. It has been logged; please try again.",
    },
    "decision_strong_hire": {"zh": "强烈推荐", "en": "strong hire"},
    "decision_hire": {"zh": "通过", "en": "hire"},
    "decision_hold": {"zh": "待定", "en": "hold"},
    "decision_no_hire": {"zh": "不通过", "en": "no hire"},
    "decision_strong_no_hire": {"zh": "强烈不推荐", "en": "strong no hire"},
    # the hiring decision (`/candidate 结论`, handlers/commands.py)
    "outcome_hire": {"zh": "录用", "en": "hire"},
    "outcome_reject": {"zh": "不录用", "en": "reject"},
    "outcome_hold": {"zh": "待定", "en": "hold"},
    "outcome_card": {"zh": "*录用结论*：{decision}", "en": "*Hiring decision:* {decision}"},
    "outcome_by": {"zh": "{who} 记录于 {at}", "en": "recorded by {who} on {at}"},
    "outcome_posted": {
        "zh": "{who} 记录了录用结论：*{decision}*",
        "en": "{who} recorded the hiring decision: *{decision}*",
    },
    "outcome_replaces": {
        "zh": "（取代之前的结论：{decision}，{who} 记录于 {at}）",
        "en": "(replaces the earlier decision: {decision}, recorded by {who} on {at})",
    },
    "outcome_need": {
        "zh": "请这样写：`/candidate 结论 &lt;候选人&gt; 录用|不录用|待定 [备注]`",
        "en": "Say: `/candidate decide &lt;candidate&gt; hire|reject|hold [note]`",
    },
    "outcome_no_deciders": {
        "zh": "还没有人可以记录录用结论：请管理员设置 DEBRIEF_DECIDERS。未记录任何内容。",
        "en": "Nobody may record hiring decisions yet: ask an admin to set DEBRIEF_DECIDERS."
        " Nothing was recorded.",
    },
    "outcome_not_decider": {
        "zh": "只有 DEBRIEF_DECIDERS 中的人可以记录录用结论。未记录任何内容。",
        "en": "Only the people in DEBRIEF_DECIDERS may record a hiring decision."
        " Nothing was recorded.",
    },
    "outcome_pending": {
        "zh": "还在读取可以记录结论的用户组，请稍后再试。未记录任何内容。",
        "en": "Still reading who may decide (user groups): try again in a moment."
        " Nothing was recorded.",
    },
    "ask_no_decide": {
        "zh": "debrief ask 不记录录用结论：请在 Slack 里点评的频道用 /candidate 结论",
        "en": "debrief ask does not record hiring decisions: type /candidate decide in Slack,"
        " in the verdict's channel",
    },
    "outcome_no_thread": {
        "zh": "这个频道里还没有 {who} 的点评：先用 `/candidate 点评 {who}` 发出点评，"
        "结论会记在它的讨论串里。未记录任何内容。",
        "en": "No verdict for {who} was posted in this channel: post it first with"
        " `/candidate verdict {who}`; the decision goes in its thread. Nothing was recorded.",
    },
    # asking reviewers (`/candidate 邀请`, handlers/commands.py, asking.py, views_requests.py)
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
    "ask_no_request": {
        "zh": "debrief ask 不邀请评审：请在 Slack 里点评的频道用 /candidate 邀请",
        "en": "debrief ask does not ask reviewers: type /candidate request in Slack,"
        " in the verdict's channel",
    },
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
    # decide with a button (handlers/listeners/decide.py)
    "decide_more": {"zh": "更多结论", "en": "More"},
    "decide_title": {"zh": "记录结论", "en": "Record a decision"},
    "decide_submit": {"zh": "记录", "en": "Record"},
    "close": {"zh": "关闭", "en": "Close"},
    "cancel": {"zh": "取消", "en": "Cancel"},
    "decide_about": {"zh": "候选人：{who}", "en": "Candidate: {who}"},
    "decide_current": {"zh": "你当前的结论：{decision}", "en": "Your current decision: {decision}"},
    "decide_label": {"zh": "结论", "en": "Decision"},
    "decide_note": {"zh": "备注（可选）", "en": "Note (optional)"},
    "decide_hint": {
        "zh": "结论会以你的名义发到点评帖的讨论串里；再次记录会替换你之前的结论。",
        "en": "Your decision is posted in the verdict's thread under your name;"
        " recording again replaces your earlier one.",
    },
    "decide_need": {"zh": "请选择一个结论。", "en": "Pick a decision."},
    "decide_note_long": {
        "zh": "备注最多 {limit} 字。",
        "en": "A note is at most {limit} characters.",
    },
    "decide_gone": {
        "zh": "这位候选人已不在库中（可能已被删除），无法记录结论。",
        "en": "This candidate is no longer indexed (perhaps erased): no decision can be recorded.",
    },
    # transcripts shared in Slack (handlers/uploads.py)
    "upload_already": {
        "zh": "这份记录已经收录过了：{id}",
        "en": "Already indexed as {id}.",
    },
    "upload_forgotten": {
        "zh": "这份记录已应要求删除，不会再次收录。",
        "en": "This transcript was erased on request; it is not indexed again.",
    },
    "upload_not_transcript": {
        "zh": "这不是面试记录：{reason}",
        "en": "Not a transcript: {reason}",
    },
    "upload_unreadable": {
        "zh": "无法读取这个文件：{reason}",
        "en": "Cannot read this file: {reason}",
    },
    "upload_parse_error": {
        "zh": "无法读取这份面试记录：{reason}",
        "en": "Cannot read this transcript: {reason}",
    },
    "upload_parse_error_line": {
        "zh": "无法读取这份面试记录（第 {line} 行）：{reason}",
        "en": "Cannot read this transcript (line {line}): {reason}",
    },
    "upload_failed": {
        "zh": "无法从 Slack 下载这个文件，请重新分享一次。",
        "en": "Could not download this file from Slack; please share it again.",
    },
    "upload_broke": {
        "zh": "抱歉，保存这个文件时出了问题，它没有被收录。请稍后再分享一次。",
        "en": "Sorry, something went wrong while saving this file, so it was not indexed."
        " Please share it again later.",
    },
    # the App Home tab (handlers/listeners/home.py)
    "home_title": {"zh": "你的招聘待办", "en": "Your hiring queue"},
    "home_waiting": {"zh": "等你给结论（{count}）", "en": "Waiting for your decision ({count})"},
    "home_new": {
        "zh": "昨天以来的新面试记录（{count}）",
        "en": "New transcripts since yesterday ({count})",
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
    "settings_saved": {
        "zh": "工作区设置已保存，立即生效。",
        "en": "The workspace's settings are saved, and apply at once.",
    },
    # the workspace's own webhook for its ATS (issue 34; handlers/views_webhook.py)
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
    "digest_new": {"zh": "新面试记录（{count}）", "en": "New transcripts ({count})"},
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
    "remind_not_due": {
        "zh": "{day}：还没到提醒时间（{time}）",
        "en": "{day}: not yet time for reminders ({time})",
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
    "cli_start_refused": {
        "zh": "无法启动：{url} 的 Slack 拒绝了这个令牌（{error}）",
        "en": "cannot start: Slack at {url} refused the token ({error})",
    },
    "cli_start_unreachable": {
        "zh": "无法启动：连不上 {url} 的 Slack（{detail}）",
        "en": "cannot start: Slack at {url} could not be reached ({detail})",
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
    "search_busy": {
        "zh": "现在搜索的人太多，请稍后再试。",
        "en": "Too many searches at once right now: please try again in a moment.",
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
    "not_installed": {
        "zh": "Debrief 还没有安装到这个工作区，或已被卸载。请工作区管理员重新安装。",
        "en": "Debrief is not installed in this workspace, or was removed. Ask a workspace admin"
        " to install it again.",
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
    # what the operating system says, by its error code (bot/cli_text.py os_reason)
    "os_ENOENT": {"zh": "没有这个文件或文件夹", "en": "no such file or directory"},
    "os_EACCES": {
        "zh": "没有权限：请检查文件和文件夹的权限",
        "en": "permission denied: check the file's and its folder's permissions",
    },
    "os_EPERM": {
        "zh": "不允许这个操作：请检查权限",
        "en": "operation not permitted: check the permissions",
    },
    "os_ELOOP": {"zh": "符号链接循环（链接指向自己）", "en": "symlink loop"},
    "os_EISDIR": {"zh": "这是文件夹，不是文件", "en": "a folder, not a file"},
    "os_ENOTDIR": {"zh": "路径中有一段不是文件夹", "en": "a part of the path is not a folder"},
    "os_ENAMETOOLONG": {"zh": "文件名太长", "en": "file name too long"},
    "os_EIO": {
        "zh": "读写出错（磁盘或网络文件系统有问题）",
        "en": "input/output error (the disk or a network file system)",
    },
    "os_ENOSPC": {"zh": "磁盘已满", "en": "no space left on the disk"},
    "os_EMFILE": {"zh": "打开的文件太多", "en": "too many open files"},
    "os_EADDRINUSE": {
        "zh": "端口已被占用：换一个 --port，或停掉占用它的程序",
        "en": "the port is taken: choose another --port, or stop what uses it",
    },
    "os_EADDRNOTAVAIL": {
        "zh": "这不是本机的地址：用 0.0.0.0 或本机的地址",
        "en": "not an address of this machine: use 0.0.0.0 or one of its addresses",
    },
    "os_ECONNREFUSED": {
        "zh": "连接被拒绝（那里没有程序在监听）",
        "en": "connection refused (nothing listens there)",
    },
    "os_ETIMEDOUT": {"zh": "连接超时", "en": "the connection timed out"},
    "os_EHOSTUNREACH": {"zh": "网络不通，到不了那台主机", "en": "no route to the host"},
    "os_ENETUNREACH": {"zh": "网络不通", "en": "the network is unreachable"},
    "os_other": {"zh": "系统报告：{detail}", "en": "{detail}"},
    # why a file gives no transcript, and what to do (store/transcripts/errors.py codes)
    "why_no_text_layer": {
        "zh": "PDF 没有文字层（是扫描件吗？）：请导出带文字的 PDF，或另存为 .docx",
        "en": "no text layer (a scan?): export it with its text, or save it as .docx",
    },
    "why_encrypted": {
        "zh": "文件已加密：请另存一份不带密码的副本，再收录那一份",
        "en": "encrypted: save a copy without the password, then index that",
    },
    "why_old_word": {
        "zh": "旧版 Word 文件（.doc）：请另存为 .docx",
        "en": "an old Word file (.doc): save it as .docx",
    },
    "why_old_office": {
        "zh": "旧版 Office 文件：请另存为 .docx",
        "en": "an old Office file: save it as .docx",
    },
    "why_spreadsheet": {
        "zh": "这是电子表格，不是面试记录：请把面试记录存为 .docx、.txt 或 .md",
        "en": "a spreadsheet, not a transcript: save the transcript as .docx, .txt or .md",
    },
    "why_presentation": {
        "zh": "这是演示文稿，不是面试记录：请把面试记录存为 .docx、.txt 或 .md",
        "en": "a presentation, not a transcript: save the transcript as .docx, .txt or .md",
    },
    "why_odf_text": {
        "zh": "OpenDocument 文本（.odt）：请另存为 .docx",
        "en": "an OpenDocument text (.odt): save it as .docx",
    },
    "why_rtf": {
        "zh": "RTF 富文本文件（.rtf）：请另存为 .docx",
        "en": "a rich-text file (.rtf): save it as .docx",
    },
    "why_zip": {
        "zh": "这是 zip 压缩包，不是面试记录：请解压，再收录里面的文件",
        "en": "a zip archive, not a transcript: unzip it and index the files in it",
    },
    "why_no_word_text": {
        "zh": "文档里没有文字（只有图片？）：请把面试记录的文字存成 .docx",
        "en": "no text in the document (pictures only?): save it with its text as .docx",
    },
    "why_not_a_document": {
        "zh": "不是 Word 文档（是模板或含宏的文件吗？）：请另存为 .docx",
        "en": "not a Word document (a template or a macro-enabled file?): save it as .docx",
    },
    "why_damaged_zip": {
        "zh": "zip 文件已损坏（是 .docx 吗？），打不开：请用 Word 打开它，另存一份 .docx",
        "en": "a damaged zip file (a .docx?): it could not be opened; open it in Word and"
        " save a new .docx",
    },
    "why_word_unzips_too_large": {
        "zh": "这个 Word 文件解压后太大，不像一份面试记录：请只保留文字，另存为 .docx 或 .txt",
        "en": "a Word file too large once unzipped for a transcript: keep only its text and"
        " save it as .docx or .txt",
    },
    "why_damaged_word": {
        "zh": "Word 文件已损坏，无法读取：请用 Word 打开它，另存一份",
        "en": "a damaged Word file: it could not be read; open it in Word and save a new copy",
    },
    "why_word_too_much_text": {
        "zh": "这个 Word 文件里的文字太多，不像一份面试记录：请一份面试记录存一个文件",
        "en": "too much text for a transcript in this Word file: keep one interview a file",
    },
    "why_pdf_too_much_text": {
        "zh": "这个 PDF 里的文字太多，不像一份面试记录：请一份面试记录存一个文件",
        "en": "too much text for a transcript in this PDF: keep one interview a file",
    },
    "why_damaged_pdf": {
        "zh": "PDF 已损坏，无法读取：请重新导出 PDF，或另存为 .docx",
        "en": "a damaged PDF: it could not be read; export it again, or save it as .docx",
    },
    "why_empty": {
        "zh": "空文件：写入面试记录后再收录",
        "en": "empty file: write the transcript in it, then index it",
    },
    "why_broken_utf16": {
        "zh": "UTF-16 文本已损坏：请用 UTF-8 重新保存",
        "en": "broken UTF-16 text: save it again as UTF-8",
    },
    "why_nul_byte": {
        "zh": "二进制文件，不是文本（含 NUL 字节）：如果它是面试记录，请另存为 .docx、.txt 或 .md",
        "en": "binary file, not text (a NUL byte): if it is a transcript, save it as .docx,"
        " .txt or .md",
    },
    "why_not_text": {
        "zh": "不是文本：既不是 UTF-8 也不是 GB18030：请用 UTF-8 重新保存",
        "en": "not text: neither UTF-8 nor GB18030; save it again as UTF-8",
    },
    "why_control_characters": {
        "zh": "二进制文件，不是文本（含控制字符）：如果它是面试记录，请另存为 .docx、.txt 或 .md",
        "en": "binary file, not text (control characters): if it is a transcript, save it as"
        " .docx, .txt or .md",
    },
    "why_no_labels": {
        "zh": "没有“岗位”“问题N”“点评”这些标签（如果它是面试记录，请写上这些标签）",
        "en": "none of the labels 岗位, 问题N, 点评 (if it is a transcript, give it those labels)",
    },
    "why_no_position_nor_question": {
        "zh": "没有“岗位”一行，也没有“问题”：请写上 `岗位：…` 和 `问题1：…`",
        "en": "no 岗位 line and no 问题 found: write `岗位：…` and `问题1：…` in it",
    },
    "why_question_number": {
        "zh": "题号超出范围：{number}：请改成 1 到 10000 之间的题号",
        "en": "question number out of range: {number}; number questions from 1 to 10000",
    },
    "why_too_large": {
        "zh": "文件太大，不像一份面试记录：{size} MB（上限 {limit} MB）：请一份面试记录存一个文件",
        "en": "file too large for a transcript: {size} MB (the limit is {limit} MB);"
        " keep one interview a file",
    },
    "why_fifo": {
        "zh": "特殊文件：FIFO（命名管道），不读取",
        "en": "special file: a FIFO (named pipe), not read",
    },
    "why_socket": {"zh": "特殊文件：套接字，不读取", "en": "special file: a socket, not read"},
    "why_character_device": {
        "zh": "特殊文件：字符设备，不读取",
        "en": "special file: a character device, not read",
    },
    "why_block_device": {
        "zh": "特殊文件：块设备，不读取",
        "en": "special file: a block device, not read",
    },
    "why_directory": {"zh": "这是文件夹，不是文件", "en": "a directory, not a file"},
    "why_not_regular": {"zh": "不是普通文件，不读取", "en": "not a regular file, not read"},
    "why_ignore_too_large": {
        "zh": "作为 .debriefignore 文件太大了：请精简它",
        "en": "too large for an ignore file: shorten it",
    },
    "why_id_taken": {
        "zh": "编号 {id} 已被 {owner} 使用：请给其中一个文件改名",
        "en": "id {id} is already used by {owner}: rename one of the files",
    },
    "why_unstorable": {
        "zh": "数据库无法保存它。数据库报告：{detail}",
        "en": "cannot be stored: {detail}",
    },
    "why_media": {
        "zh": "不是文字文件（{mimetype}）：请把面试记录存为 .docx、.txt 或 .md 再分享",
        "en": "not a text file ({mimetype}): share the transcript as .docx, .txt or .md",
    },
    "why_other": {"zh": "无法读取。系统报告：{detail}", "en": "{detail}"},
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
}


def t(locale: Locale, key: str, **values: object) -> str:
    text = _STRINGS[key][locale]
    return text.format(**values) if values else text


def reason_text(
    locale: Locale,
    english: str,
    code: str = "",
    params: Mapping[str, object] | None = None,
) -> str:
    """Why a file gives no transcript, in `locale`, with what to do: from its code
    (store/transcripts/errors.py; a declared reason's own by default) and values. A
    reason without words here is quoted as it was said."""
    code = code or code_of(english)
    if code.startswith("os_") and code in _STRINGS:
        return t(locale, code)
    if code and f"why_{code}" in _STRINGS:
        return t(locale, f"why_{code}", **(params or {}))
    return t(locale, "why_other", detail=english)


def has(key: str) -> bool:
    """Whether the catalogue has words for `key`."""
    return key in _STRINGS
