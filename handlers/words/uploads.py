"""Transcripts shared in Slack (handlers/uploads.py): what the person who shared one is told."""

from __future__ import annotations

from store.models import Locale

WORDS: dict[str, dict[Locale, str]] = {
    # transcripts shared in Slack (handlers/uploads.py)
    "upload_already": {
        "zh": "这份记录已经收录过了：{id}",
        "en": "Already indexed as {id}.",
    },
    "upload_several": {
        "zh": "这个文件里有 {count} 场面试，都已收录：{ids}。下面是第一场的摘要，其余可用"
        " `/candidate 总结 <编号>` 查看。",
        "en": "This file holds {count} interviews, each indexed: {ids}. The card below is the"
        " first's; see the others with `/candidate summary <id>`.",
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
    # Zoom's cloud transcripts (handlers/zoom_arrivals.py): what the channel's admins are told
    "zoom_refused": {
        "zh": "{when} 开始的 Zoom 会议有文字记录，但没有作为面试收录：{reason}",
        "en": "The Zoom meeting that started at {when} has a transcript, but it was not"
        " indexed as an interview: {reason}",
    },
    "zoom_failed": {
        "zh": "{when} 开始的 Zoom 会议的文字记录多次尝试后仍无法从 Zoom 取得（{reason}）。"
        "运行 `debrief zoom sync` 会再试一次。",
        "en": "Could not fetch the transcript of the Zoom meeting that started at {when}"
        " from Zoom after several tries ({reason}). Running `debrief zoom sync` tries again.",
    },
}
