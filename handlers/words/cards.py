"""What `/candidate` says in Slack: the help, a candidate's card and its parts, pick lists,
search hits and lists, and what sending tells the person who asked."""

from __future__ import annotations

from store.models import UNANSWERED_LABELS, Locale

WORDS: dict[str, dict[Locale, str]] = {
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
            "*/candidate 总结 &lt;候选人&gt; 全部* 这位候选人的全部面试：每一轮的评审意见和未回答的问题、"
            "录用结论（写名字时，有多场面试的候选人也给出全部）\n"
            "*/candidate 合并 &lt;面试A&gt; &lt;面试B&gt;* 两场面试算作同一位候选人（仅限"
            " DEBRIEF_DECIDERS 中的人）\n"
            "*/candidate 拆分 &lt;面试&gt;* 把这场面试分出来，单独算一位候选人（仅限"
            " DEBRIEF_DECIDERS 中的人）\n"
            "*/candidate 对比 &lt;A&gt; &lt;B&gt; [&lt;C&gt; &lt;D&gt;]* 最多四位候选人并排对比\n"
            "*/candidate 交接 &lt;候选人&gt; @面试官…* 私信下一轮面试官：前几轮的情况、要再问的问题、"
            "评审的顾虑\n"
            "*/candidate 帮助* 显示本说明\n"
            "&lt;候选人&gt; 可以是编号、编号前缀（如 `000` ）或能唯一匹配的词（如岗位名）。"
            "英文子命令同样可用：summary、unanswered、verdict、question、search、list、decide、"
            "request、merge、split、compare、handoff、help。"
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
            "*/candidate summary &lt;who&gt; all* every interview of the candidate: each"
            " round's reviews and unanswered questions, the hiring decision (a name gives the"
            " whole loop of a candidate with several interviews)\n"
            "*/candidate merge &lt;interview A&gt; &lt;interview B&gt;* the two interviews are one"
            " candidate's (DEBRIEF_DECIDERS only)\n"
            "*/candidate split &lt;interview&gt;* makes the interview a candidate of its own"
            " (DEBRIEF_DECIDERS only)\n"
            "*/candidate compare &lt;A&gt; &lt;B&gt; [&lt;C&gt; &lt;D&gt;]* up to four candidates"
            " side by side\n"
            "*/candidate handoff &lt;who&gt; @interviewer…* a DM to the next interviewer: the"
            " earlier rounds, the questions to ask again, the reviewers' concerns\n"
            "*/candidate help* this help\n"
            "&lt;who&gt; is an id, an id prefix (such as `000`) or words that match one candidate."
            " Chinese subcommands work too: 总结、未回答、点评、问题、搜索、列表、结论、邀请、"
            "合并、拆分、对比、交接、帮助."
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
    "question_unread": {
        "zh": "未能从 {who} 的文件中读出问题： `/candidate 总结 {who}` 可以看文件原文。",
        "en": "Questions could not be read from {who}'s file: `/candidate summary {who}` shows"
        " its text as written.",
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
    "hit_partial": {"zh": "部分匹配：只有 {terms}", "en": "partly matched: only {terms}"},
    "term_separator": {"zh": "、", "en": ", "},
    "hits_title_newest": {
        "zh": "搜索“{query}”（最新的在前）",
        "en": "Search: “{query}” (newest first)",
    },
    # a word and what it labels: `考察目标：…` / `Assesses: …`; a heading: `点评：` / `Verdict:`
    "labelled": {"zh": "{label}：{text}", "en": "{label}: {text}"},
    "heading": {"zh": "{label}：", "en": "{label}:"},
    "years": {"zh": "{years} 年经验", "en": "{years} yrs"},
    "years_unknown": {"zh": "年限未知", "en": "years unknown"},
    "position_unknown": {"zh": "岗位未知", "en": "position unknown"},
    "profile": {"zh": "简介", "en": "Profile"},
    "summary": {"zh": "面试总结", "en": "Summary"},
    # who and when, from the transcript's header (names are shown as the file writes them)
    "interviewers_label": {"zh": "面试官", "en": "Interviewers"},
    "name_separator": {"zh": "、", "en": ", "},
    "no_decisions": {"zh": "还没有结论。", "en": "No decisions yet."},
    "read_full_summary": {"zh": "完整简介和总结", "en": "Full profile and summary"},
    "open_question": {"zh": "问题{n}（{reason}）：{words}", "en": "Q{n} ({reason}): {words}"},
    # a meeting transcript's questions, each with its time in the recording (`00:03:15`)
    "meeting_question": {"zh": "问题{n}（{at}）：{words}", "en": "Q{n} ({at}): {words}"},
    "meeting_open_question": {
        "zh": "问题{n}（{at}，{reason}）：{words}",
        "en": "Q{n} ({at}, {reason}): {words}",
    },
    "meeting_questions_title": {
        "zh": "问题（录音中的时间）",
        "en": "Questions (time in the recording)",
    },
    "meeting_no_summary": {
        "zh": "这是会议转写记录：问题和回答按录音整理，文件里没有面试总结。",
        "en": "A meeting transcript: questions and answers as recorded; it has no summary.",
    },
    "answered": {
        "zh": "已回答 {answered} 题，未回答 {open} 题（共 {total} 题）",
        "en": "{answered} answered, {open} unanswered ({total} questions)",
    },
    # a file in which no question was found (store/transcripts/warnings.py): never "all
    # answered"; why, on the card and the unanswered list; in short, on a line of a list
    "no_questions": {
        "zh": "没有找到问题：文件里没有“问题N”标签，也没有问题表格。",
        "en": "No questions found: the file has no “Question N” labels and no table of questions.",
    },
    "no_questions_meeting": {
        "zh": "没有找到问题：这份会议记录里，没有一轮发言是在问候选人问题。",
        "en": "No questions found: no turn of this meeting transcript asks the candidate a"
        " question.",
    },
    "no_questions_short": {"zh": "没有找到问题", "en": "no questions found"},
    # issue 46: a file whose questions could not be read (its text shown as written, no
    # count, no claim); questions listed with no answer recorded (counted neither way)
    "questions_unread": {
        "zh": "未能从文件中读出问题。下面是文件的原文。",
        "en": "Questions could not be read from this file. Its text as written is below.",
    },
    "questions_unread_short": {
        "zh": "未能从文件中读出问题",
        "en": "questions could not be read from this file",
    },
    "body_title": {"zh": "原文", "en": "The text as written"},
    "body_cut": {
        "zh": "原文较长，这里只显示前 {shown} 字（共 {total} 字）。",
        "en": "The text is long: the first {shown} of its {total} characters are shown.",
    },
    "answer_not_recorded": {"zh": "未记录回答", "en": "answer not recorded"},
    "unrecorded_count": {"zh": "{count} 题未记录回答", "en": "{count} with no answer recorded"},
    "all_unrecorded": {
        "zh": "文件列出了 {count} 道问题，但没有记录回答：无法判断是否作答。",
        "en": "The file lists {count} question(s) but records no answer: whether they were"
        " answered cannot be told.",
    },
    "list_separator": {"zh": "，", "en": ", "},
    "no_summary": {"zh": "这份记录没有面试总结。", "en": "This transcript has no summary."},
    "meeting_no_verdict": {
        "zh": "这是会议记录导出，没有总结和点评。",
        "en": "This is a meeting transcript export: it has no summary and no verdict.",
    },
    "overview_missing": {
        "zh": "另有 {count} 位候选人的记录里没有找到问题、未能读出问题或没有记录回答，无法判断是否作答"
        "（ `/candidate 列表` 里有标注）。",
        "en": "No questions were found in {count} more transcript(s) (or they could not be"
        " read, or no answer was recorded), so they are not counted as answered"
        " (`/candidate list` marks them).",
    },
    "overview_none_found": {
        "zh": "找到的问题里没有未回答的；但有 {count} 位候选人的记录里没有找到问题、未能读出问题"
        "或没有记录回答，无法判断是否作答（ `/candidate 列表` 里有标注）。",
        "en": "None of the questions found is unanswered, but no questions were found in"
        " {count} transcript(s) (or they could not be read, or no answer was recorded): they"
        " are not counted as answered (`/candidate list` marks them).",
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
    "from_zoom_meeting": {
        "zh": "来自 Zoom 会议「{title}」",
        "en": "from the Zoom meeting “{title}”",
    },
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
    # a reply in parts, and what a person is told when something went wrong
    "continue": {
        "zh": "继续（从第 {first} 部分起，共 {total} 部分）",
        "en": "Continue (from part {first} of {total})",
    },
    "read_verdict": {"zh": "完整点评", "en": "Whole verdict"},
    "error": {
        "zh": "抱歉，出了点问题，已记录下来。请稍后再试。",
        "en": "Sorry, something went wrong on my side. It has been logged; please try again.",
    },
    "search_too_many_terms": {
        "zh": "一次搜索最多 {most} 个词，这次有 {found} 个，所以没有搜索：请去掉一些词再搜。",
        "en": "A search takes at most {most} words and this one has {found}, so nothing was"
        " searched: leave some out and search again.",
    },
    "search_too_long": {
        "zh": "一次搜索最多 {most} 个字，这次有 {found} 个，所以没有搜索：请写短一些再搜。",
        "en": "A search takes at most {most} characters and this one has {found}, so nothing"
        " was searched: say it in fewer words and search again.",
    },
    "search_busy": {
        "zh": "现在搜索的人太多，请稍后再试。",
        "en": "Too many searches at once right now: please try again in a moment.",
    },
}
