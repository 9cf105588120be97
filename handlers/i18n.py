"""The bot's own words, in Chinese and English: the one catalogue that Slack (handlers/)
and the command line (bot/cli_text.py) both read, one entry a word. Importing it loads
no Bolt. Transcript text is never translated."""

from __future__ import annotations

from store.models import UNANSWERED_LABELS
from store.models import Locale as Locale

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
            "*/candidate 帮助* 显示本说明\n"
            "&lt;候选人&gt; 可以是编号、编号前缀（如 `000` ）或能唯一匹配的词（如岗位名）。"
            "英文子命令同样可用：summary、unanswered、verdict、question、search、list、help。"
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
            "*/candidate help* this help\n"
            "&lt;who&gt; is an id, an id prefix (such as `000`) or words that match one candidate."
            " Chinese subcommands work too: 总结、未回答、点评、问题、搜索、列表、帮助."
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
    "did_you_mean": {
        "zh": "你是想用 `{name}` 吗？试试 `{example}`。",
        "en": "Did you mean `{name}`? Try `{example}`.",
    },
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
    "index_skipped": {"zh": "，跳过 {skipped}", "en": ", {skipped} skipped"},
    "skipped_file": {"zh": "  跳过：{path}：{reason}", "en": "  skipped: {path}: {reason}"},
    "failed_file": {"zh": "  失败：{path}：{reason}", "en": "  failed: {path}: {reason}"},
    "no_audit": {"zh": "没有审计记录", "en": "no audit entries"},
    "backed_up": {
        "zh": "已把 {src} 备份到 {dest}（{size}）",
        "en": "backed up {src} to {dest} ({size})",
    },
    "forgot": {
        "zh": "已忘记 {id}：删除了记录，以及 {parts}。\n它的文件会一直被忽略，直到文件改变或执行 `debrief forget --restore`。",
        "en": "forgot {id}: removed the transcript, {parts}.\n"
        "Its file stays forgotten until it changes or `debrief forget --restore` is given.",
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
}


def t(locale: Locale, key: str, **values: object) -> str:
    text = _STRINGS[key][locale]
    return text.format(**values) if values else text


def has(key: str) -> bool:
    """Whether the catalogue has words for `key`."""
    return key in _STRINGS
