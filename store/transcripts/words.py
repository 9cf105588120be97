"""Why a file gives no transcript, in Chinese and English, and what to do about it: the
words for each code of store/transcripts/errors.py (`why_<code>`) and for what the
operating system says (`os_<errno name>`). Data only: the lookup that says them is
handlers/i18n.py, which the store does not import."""

from __future__ import annotations

from ..models import Locale

WORDS: dict[str, dict[Locale, str]] = {
    # what the operating system says, by its error code (files.py; bot/cli_text.py os_reason)
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
    "why_no_odt_text": {
        "zh": "OpenDocument 文档（.odt）里没有文字（只有图片？）：请把面试记录的文字另存为 .docx",
        "en": "no text in the OpenDocument file (pictures only?): save it as .docx with its text",
    },
    "why_damaged_odt": {
        "zh": "OpenDocument 文件（.odt）已损坏，无法读取：请用 LibreOffice 打开它，另存一份",
        "en": "a damaged OpenDocument file (.odt): it could not be read; open it in LibreOffice"
        " and save a new copy",
    },
    "why_document_unzips_too_large": {
        "zh": "这个文档解压后太大，不像一份面试记录",
        "en": "a document too large once unzipped for a transcript",
    },
    "why_document_too_much_text": {
        "zh": "这个文档里的文字太多，不像一份面试记录：请一份面试记录存一个文件",
        "en": "too much text for a transcript in this document: keep one interview a file",
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
    "why_question_bank": {
        "zh": "这是附参考答案的题库，不是面试记录：只索引真实面试的记录",
        "en": "a question bank with reference answers, not an interview record: only records"
        " of real interviews are indexed",
    },
    "why_study_notes": {
        "zh": "这是逐题讲解的学习笔记，不是面试记录：只索引真实面试的记录",
        "en": "study notes that explain each question, not an interview record: only records"
        " of real interviews are indexed",
    },
    "why_dates_list": {
        "zh": "这是一份日期、公司和轮次的清单，不是面试记录：每场面试请单独记录问题和回答",
        "en": "a list of dates, companies and rounds, not an interview record: record each"
        " interview's questions and answers",
    },
    "why_speech_to_text": {
        "zh": "这是语音转写的谈话，里面没有人被提问：不是面试记录",
        "en": "speech to text of people talking, with no questions asked of anyone: not an"
        " interview",
    },
    "why_own_notes": {
        "zh": "这是个人笔记（面试准备、复习要点），不是面试记录",
        "en": "notes of one's own (preparation, topics to review), not an interview record",
    },
    "why_faq": {
        "zh": "这是常见问题解答（FAQ），不是面试记录",
        "en": "a FAQ (questions and answers about a subject), not an interview record",
    },
    "why_article": {
        "zh": "这是文章或说明文档，里面没有面试问题，不是面试记录",
        "en": "an article or a README with no interview questions in it, not an interview record",
    },
    "why_vtt_no_questions": {
        "zh": "这是 WebVTT 会议录音文字稿，但里面没有找到向候选人提的问题：请确认面试官和候选人的发言都在里面",
        "en": "a WebVTT meeting recording in which no question to the candidate was found: check"
        " that what the interviewer and the candidate said is in it",
    },
    "why_srt_no_questions": {
        "zh": "这是 SRT 会议录音字幕，但里面没有找到向候选人提的问题：请确认面试官和候选人的发言都在里面",
        "en": "an SRT meeting recording in which no question to the candidate was found: check"
        " that what the interviewer and the candidate said is in it",
    },
    "why_meeting_text_no_questions": {
        "zh": "这是会议转写记录（飞书妙记、腾讯会议、钉钉），但里面没有找到向候选人提的问题：请确认面试官和候选人的发言都在里面",
        "en": "a meeting transcript (飞书妙记, 腾讯会议, 钉钉) in which no question to the"
        " candidate was found: check that what the interviewer and the candidate said is in it",
    },
    "why_dialogue_no_questions": {
        "zh": "这是一段对话记录，但里面没有找到向候选人提的问题：请用 `面试官：…` 和 `候选人：…` 写下问答",
        "en": "a typed dialogue in which no question to the candidate was found: write the"
        " questions and answers as `面试官：…` and `候选人：…` lines",
    },
    "why_meeting_many_speakers": {
        "zh": "这是多人参加的录音（工作坊、课堂或网络研讨会），不是面试：不会把它当作面试记录",
        "en": "a recording with many speakers (a workshop, a class or a webinar), not an"
        " interview: it is not read as one",
    },
    "why_work_meeting": {
        "zh": "这是工作会议，不是面试：发言的人在一起计划或讨论工作，没有人被问到自己的经历或技能",
        "en": "a work meeting, not an interview: the speakers plan or discuss work together,"
        " nobody is asked about their experience or skills",
    },
    "why_speech_no_questions": {
        "zh": "这是没有向任何人提问的语音转写，不是面试：如果它是面试，请导出带说话人的文字稿",
        "en": "speech-to-text with no questions to anyone, not an interview: if it is an"
        " interview, export the transcript with its speakers",
    },
    "why_damaged_subtitles": {
        "zh": "WebVTT 或 SRT 文件已损坏，读不出其中的字幕：请从会议软件重新导出",
        "en": "a damaged WebVTT or SRT file: its cues could not be read; export it again from"
        " the meeting tool",
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
    "why_pdf_too_many_pages": {
        "zh": "这个 PDF 页数太多，不像一份面试记录：请一份面试记录存一个文件",
        "en": "too many pages for a transcript in this PDF: keep one interview a file",
    },
    "why_pdf_unpacks_too_large": {
        "zh": "这个 PDF 的内容解压后太大，不像一份面试记录：请另存为 .docx 或 .txt",
        "en": "a PDF whose contents unpack too large for a transcript: save it as .docx or .txt",
    },
    "why_link_outside": {
        "zh": "这是指向索引文件夹之外的文件的链接，不读取：请把文件本身放进文件夹",
        "en": "a link to a file outside the indexed folder, not read: put the file itself"
        " in the folder",
    },
    "why_link_to_folder": {
        "zh": "这是指向文件夹的链接，不跟随：请直接索引那个文件夹",
        "en": "a link to a folder, not followed: index that folder itself",
    },
    "why_reader_failed": {
        "zh": "读不出这个文件：读取程序在其中出错了：请另存为 .docx、.txt 或 .md 再试",
        "en": "could not be read: its reader stopped on it; save it again as .docx, .txt or .md",
    },
    "why_read_too_long": {
        "zh": "已停止：读取它用时太长或占用内存太多：请另存为 .docx、.txt 或 .md 再试",
        "en": "stopped: reading it took too long or too much memory; save it again as"
        " .docx, .txt or .md",
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
}
