"""The command line's words for whole workspaces' data: `--workspace`, `forget --workspace`,
`migrate-workspace`."""

from __future__ import annotations

from store.models import Locale

WORDS: dict[str, dict[Locale, str]] = {
    # -- which workspace's data (installed in many workspaces) ------------------------------
    "cli_workspace_bad_key": {
        "zh": "{workspace} 不是工作区标识：工作区的以 T 开头，企业组织（Enterprise Grid）的以 E 开头，例如 T0123ABCD",
        "en": "{workspace} is not a workspace key: a workspace's starts with T, an Enterprise Grid"
        " organisation's with E, like T0123ABCD",
    },
    "cli_workspace_unknown": {
        "zh": "这个数据库里没有工作区 {workspace} 的数据（有的是：{known}）",
        "en": "this database holds no data of workspace {workspace} (it holds: {known})",
    },
    "cli_workspace_needed": {
        "zh": "这个数据库保存着多个工作区的数据：用 --workspace 指明是哪一个（{known}）",
        "en": "this database holds the data of several workspaces: say which with --workspace"
        " ({known})",
    },
    "cli_workspace_none": {"zh": "还没有", "en": "none yet"},
    "cli_workspace_zero": {
        "zh": "单工作区模式的数据（还没有工作区标识）",
        "en": "the single-workspace mode's data (no workspace key yet)",
    },
    "cli_forget_what": {
        "zh": "要忘记谁？给出候选人的 ID；或者用 --workspace 抹去整个工作区的数据",
        "en": "forget whom? Give a candidate's id, or --workspace to erase a whole workspace's data",
    },
    "forget_workspace_confirm": {
        "zh": "永久抹去工作区 {workspace} 的全部数据（{n} 位候选人，连同评审、决定和上传的文件）？审计记录会保留，以化名代替候选人",
        "en": "Erase all data of workspace {workspace} for good ({n} candidates, with their reviews,"
        " decisions and uploaded files)? The audit lines stay, with pseudonyms for the"
        " candidates",
    },
    "forget_workspace_kept": {
        "zh": "工作区 {workspace} 的数据没有动",
        "en": "the data of workspace {workspace} is kept",
    },
    "forgot_workspace": {
        "zh": "已抹去工作区 {workspace} 的数据：候选人 {candidates} 位，上传的文件 {files} 个，其他记录 {rows} 条；审计记录以化名保留",
        "en": "erased the data of workspace {workspace}: {candidates} candidates, {files} uploaded"
        " files, {rows} other rows; the audit lines stay, with pseudonyms",
    },
    "forget_workspace_installed": {
        "zh": "工作区 {workspace} 仍安装着 Debrief：先在 Slack 里卸载，再抹去它的数据",
        "en": "workspace {workspace} still has Debrief installed: uninstall it in Slack first, then"
        " erase its data",
    },
    "forget_workspace_zero": {
        "zh": "工作区 {workspace} 的数据是单工作区模式留下的，而它从未卸载 Debrief：只有安装后又卸载的工作区，数据才能整体抹去（可以逐个忘记候选人）",
        "en": "the data of workspace {workspace} is the single-workspace mode's, and it never"
        " uninstalled Debrief: only a workspace that installed and then uninstalled it can"
        " have its data erased whole (its candidates can be forgotten one by one)",
    },
    "forget_workspace_erased": {
        "zh": "工作区 {workspace} 的数据已经抹去了",
        "en": "the data of workspace {workspace} was erased already",
    },
    "cli_workspace_uninstalled": {
        "zh": "工作区 {workspace} 已卸载 Debrief，它的数据正等待抹去（{when} 起）：不再写入它的数据"
        "（仍可查看、导出或抹去；重新安装 Debrief 会保留这些数据）",
        "en": "workspace {workspace} uninstalled Debrief and its data waits for erasure (due"
        " {when}): nothing more is written into it (it can still be read, exported and"
        " erased; installing Debrief again keeps the data)",
    },
    "cli_workspace_uninstalled_due": {
        "zh": "工作区 {workspace} 已卸载 Debrief，它的数据正等待抹去（下一次每日清理时）：不再写入它的数据"
        "（仍可查看、导出或抹去）",
        "en": "workspace {workspace} uninstalled Debrief and its data waits for erasure (at the"
        " next daily run): nothing more is written into it (it can still be read, exported"
        " and erased)",
    },
    # -- migrate-workspace -----------------------------------------------------------------
    "migrate_workspace_named": {
        "zh": "单工作区模式的数据现在属于工作区 {workspace}：它安装 Debrief 时就会接管这些数据，一行也不改写",
        "en": "the single-workspace mode's data now belongs to workspace {workspace}: its install of"
        " Debrief takes it over, no row rewritten",
    },
    "migrate_workspace_already": {
        "zh": "单工作区模式的数据已经属于工作区 {workspace}",
        "en": "the single-workspace mode's data belongs to workspace {workspace} already",
    },
    "migrate_workspace_taken": {
        "zh": "工作区 {workspace} 已有自己的数据空间（第 {ws} 号）：单工作区模式的数据不能再归它",
        "en": "workspace {workspace} has a data space of its own already (space {ws}): the"
        " single-workspace mode's data cannot become its",
    },
    "migrate_workspace_keyed": {
        "zh": "单工作区模式的数据已经属于工作区 {other}，不能再改给 {workspace}",
        "en": "the single-workspace mode's data belongs to workspace {other} already, not to be"
        " given to {workspace}",
    },
    "migrate_workspace_erased": {
        "zh": "单工作区模式的数据已被抹去，没有可以交给 {workspace} 的",
        "en": "the single-workspace mode's data was erased: there is nothing to give {workspace}",
    },
    "migrate_workspace_served_other": {
        "zh": "这个数据库在单工作区模式下服务的是 {team}（{team_id}），不是 {workspace}：确实要把数据交给 {workspace}，请加上 --force",
        "en": "in the single-workspace mode this database served {team} ({team_id}), not {workspace}:"
        " to give its data to {workspace} all the same, add --force",
    },
}
