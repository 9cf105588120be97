"""The written layout families (issue 46, step 4): a list of the questions asked with the
candidate's answers under them or marks beside them, and a Q/A dialogue written down.
Each case is a document's blocks, built here by hand as the structure step builds them
(emphasis set aside into `marks`), and the table of questions it must give, every field
of every question. The real files in ../shared/realworld/ are checked when present (their
blocks built with markdown-it-py here; nothing of them is kept in the project)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from store.models import Question
from store.transcripts.document import Block
from store.transcripts.marks import non_answer
from store.transcripts.qa import read_qa
from store.transcripts.question_lists import read_question_list


def h(text: str, level: int = 2) -> Block:
    return Block("heading", text, level=level)


def p(text: str, *marks: str) -> Block:
    return Block("paragraph", text, marks=marks)


def li(text: str, *marks: str, level: int = 0) -> Block:
    return Block("item", text, level=level, marks=marks)


def ol(n: int, text: str, *marks: str, level: int = 0) -> Block:
    return Block("item", text, level=level, marks=marks, ordered=True, number=n)


# A row: (question, answer, state); state is "answered", "not recorded" (the file does
# not record the answer) or the unanswered reason.
Row = tuple[str, str, str]


def table(rows: Sequence[Row]) -> list[Question]:
    found = []
    for number, (question, answer, state) in enumerate(rows, start=1):
        if state == "not recorded":
            found.append(Question(number=number, question=question, answer_recorded=False))
            continue
        answered = state == "answered"
        found.append(
            Question(
                number=number,
                question=question,
                goal="",
                answer=answer,
                answered=answered,
                unanswered_reason=None if answered else state,  # type: ignore[arg-type]
                started_at=None,
                answer_recorded=True,
            )
        )
    return found


# -- question lists ----------------------------------------------------------------------

MARKED_BULLETS = [
    h("库犸科技（嵌入式）", 1),
    h("一面"),
    li("自我介绍"),
    li("简述一下SPI通讯"),
    li("在项目中是如何使用SPI的，与IMU通讯用的轮询还是中断  没答上来", "没答上来"),
    li(
        "在ADC的使用中，清楚规则组和注入组吗  确实忘了，只说使用定时器触发",
        "确实忘了，只说使用定时器触发",
    ),
    li(
        "为什么IIC的准确率不如SPI  答的上拉电阻，主要应该是ACK应答机制",
        "答的上拉电阻，主要应该是ACK应答机制",
    ),
    li("讲讲 HashMap 的扩容", "HashMap"),
    li("说说Redis的持久化，我回答不会"),
    li("Linux的任务调度原理  确实不会", "确实不会"),
    li("TCP拥塞控制（没答出来）"),
    li("Explain closures - I don't know"),
    li("进程间通信有哪些方式  答得不好", "答得不好"),
    li("epoll 的原理？不会"),
    li("❌ 红黑树的旋转"),
    li("跳表的查找 ✗"),
    li("✅ B+ 树的结构"),
    li("介绍了下公司岗位，反问环节，我问了实习转正"),
    h("总结"),
    p("个人感觉面的效果还可以，面试官人很好", "个人感觉面的效果还可以，面试官人很好"),
]
MARKED_BULLETS_TABLE: list[Row] = [
    ("自我介绍", "", "not recorded"),
    ("简述一下SPI通讯", "", "not recorded"),
    ("在项目中是如何使用SPI的，与IMU通讯用的轮询还是中断", "没答上来", "dont_know"),
    ("在ADC的使用中，清楚规则组和注入组吗", "确实忘了，只说使用定时器触发", "dont_know"),
    ("为什么IIC的准确率不如SPI", "答的上拉电阻，主要应该是ACK应答机制", "answered"),
    ("讲讲 HashMap 的扩容", "", "not recorded"),
    ("说说Redis的持久化", "我回答不会", "dont_know"),
    ("Linux的任务调度原理", "确实不会", "dont_know"),
    ("TCP拥塞控制", "没答出来", "dont_know"),
    ("Explain closures", "I don't know", "dont_know"),
    ("进程间通信有哪些方式", "答得不好", "dont_know"),
    ("epoll 的原理？", "不会", "dont_know"),
    ("红黑树的旋转", "❌", "dont_know"),
    ("跳表的查找", "✗", "dont_know"),
    ("✅ B+ 树的结构", "", "not recorded"),
]

BARE_LIST = [
    h("字节前端一面-凉了", 1),
    li("自我介绍"),
    li("怎么学习前端的"),
    li("三次握手和四次挥手过程是什么"),
    li("手写代码"),
    li("解析一个unix文件的目录", level=1),
    li("根据前序遍历和中序遍历的结果构建二叉树", level=1),
    li("以下两者有什么区别？"),
    Block("code", 'String a = "hello";\nString b = new String("hello");'),
    li("有什么要提问的"),
    li("基础平台是做什么的？", level=1),
    li("总的来说面试官人很好，会耐心引导"),
    li("第二天邮件告诉我没过"),
]
BARE_LIST_TABLE: list[Row] = [
    ("自我介绍", "", "not recorded"),
    ("怎么学习前端的", "", "not recorded"),
    ("三次握手和四次挥手过程是什么", "", "not recorded"),
    ("解析一个unix文件的目录", "", "not recorded"),
    ("根据前序遍历和中序遍历的结果构建二叉树", "", "not recorded"),
    ("以下两者有什么区别？", "", "not recorded"),
]

# 反问 under its own label, a remark bullet inside it, a numbered `1、` paragraph list,
# and a group `编程：` whose items are the questions.
SECTIONS = [
    h("一面"),
    p("1、目标识别推理系统的主要工作\n2、除SSD和YOLO还有什么其他目标识别算法"),
    li("编程："),
    li("找出单链表的倒数第n个数", level=1),
    li("合并两个有序数组", level=1),
    li("介绍一下线程池"),
    li("核心参数有哪些", level=1),
    li("完整版推荐答案：click here", level=1),
    li("http 与 https 的区别"),
    li("参考答案：SSL 加密", level=1),
    p("反问："),
    li("团队做什么业务"),
    li("面试评价：整体还行，基础需要加强"),
    p("不足："),
    ol(1, "面试环境最好室内"),
    ol(2, "简历偏向算法工程"),
]
SECTIONS_TABLE: list[Row] = [
    ("目标识别推理系统的主要工作", "", "not recorded"),
    ("除SSD和YOLO还有什么其他目标识别算法", "", "not recorded"),
    ("找出单链表的倒数第n个数", "", "not recorded"),
    ("合并两个有序数组", "", "not recorded"),
    ("介绍一下线程池", "- 核心参数有哪些", "answered"),
    ("http 与 https 的区别", "", "not recorded"),
]

# `### Question N` headings, the question in bold under it, the answer after
# `**Interviewee:**` (several paragraphs), an interviewer's follow-up left out.
QUESTION_HEADINGS = [
    h("Interview Transcript – Teams Assistant", 1),
    p("Interviewer: Tiffany Tang"),
    h("Question 1", 3),
    p("Can you describe a typical workday?", "Can you describe a typical workday?"),
    p("Interviewee:\nA typical workday starts with my classes.", "Interviewee:"),
    p("I rarely text others there."),
    h("Question 2", 3),
    p("What makes it hard to stay organized?", "What makes it hard to stay organized?"),
    p("(Asked after a short break.)"),
    p("Interviewee:", "Interviewee:"),
    p("Switching between tabs."),
    h("Follow-up", 4),
    p("Interviewer: Why is that?", "Interviewer:"),
    p("Candidate: Everything is spread out.", "Candidate:"),
    h("Question 3: How would an assistant help?", 3),
    p("Interviewee: I don't know.", "Interviewee:"),
    h("问题4：你对加班怎么看", 3),
    h("面试题：bgsave 讲一下（没答上来）", 3),
    h("Summary", 2),
    p("The interviewee relies on Teams for class work."),
]
QUESTION_HEADINGS_TABLE: list[Row] = [
    (
        "Can you describe a typical workday?",
        "A typical workday starts with my classes.\n\nI rarely text others there.",
        "answered",
    ),
    (
        "What makes it hard to stay organized?",
        "Switching between tabs.\n\nEverything is spread out.",
        "answered",
    ),
    ("How would an assistant help?", "I don't know.", "dont_know"),
    ("你对加班怎么看", "", "not recorded"),
    ("bgsave 讲一下", "没答上来", "dont_know"),
]


@pytest.mark.parametrize(
    ("blocks", "rows"),
    [
        pytest.param(MARKED_BULLETS, MARKED_BULLETS_TABLE, id="bullets-with-marks"),
        pytest.param(BARE_LIST, BARE_LIST_TABLE, id="bare-list"),
        pytest.param(SECTIONS, SECTIONS_TABLE, id="sections-remarks-groups"),
        pytest.param(QUESTION_HEADINGS, QUESTION_HEADINGS_TABLE, id="question-headings"),
    ],
)
def test_a_question_list_gives_each_question_its_answer_or_mark(
    blocks: list[Block], rows: list[Row]
) -> None:
    assert read_question_list(blocks) == table(rows)


def test_answers_under_items_are_the_answers_when_the_list_goes_on() -> None:
    blocks = [
        ol(1, "Redis 为什么快"),
        p("内存操作，单线程避免切换"),
        ol(2, "说说 epoll"),
        p("不清楚"),
        ol(3, "最后一个问题"),
        p("我答了 LRU"),
    ]
    assert read_question_list(blocks) == table(
        [
            ("Redis 为什么快", "内存操作，单线程避免切换", "answered"),
            ("说说 epoll", "不清楚", "dont_know"),
            ("最后一个问题", "我答了 LRU", "answered"),
        ]
    )


def test_the_writers_asides_under_a_question_are_no_answer() -> None:
    """Advice to the reader (`建议大家…`, a quote, `PS：…`) under a question is not what
    the candidate said: alone it leaves the answer not recorded, beside a mark it is not
    shown as the answer."""
    blocks = [
        h("米哈游 后端 一面", 1),
        li("讲讲Redis持久化"),
        li("建议大家看看RDB和AOF的区别，这个必问", level=1),
        li("说说TCP拥塞控制"),
        Block("quote", "这题可以参考《图解TCP》"),
        li("MySQL事务隔离级别"),
        li("答了四种隔离级别和各自的问题", level=1),
        li("手写单例模式"),
        li("PS：面试官说要线程安全的版本", level=1),
        li("分库分表后怎么做分页？"),
        li("后来查了一下，可以用二次查询法", level=1),
        li("Kafka如何保证消息不丢失  没答上来", "没答上来"),
        Block("quote", "建议大家好好看看ack机制"),
        li("反问：部门做什么业务"),
    ]
    assert read_question_list(blocks) == table(
        [
            ("讲讲Redis持久化", "", "not recorded"),
            ("说说TCP拥塞控制", "", "not recorded"),
            ("MySQL事务隔离级别", "- 答了四种隔离级别和各自的问题", "answered"),
            ("手写单例模式", "", "not recorded"),
            ("分库分表后怎么做分页？", "", "not recorded"),
            ("Kafka如何保证消息不丢失", "没答上来", "dont_know"),
        ]
    )


def test_the_records_account_after_a_questions_mark_is_its_answer() -> None:
    """`期望薪资是多少？ 我说了25k`: after the `？`, the account of what the candidate
    said is the answer, not the question's text; any other text after it
    (`有一个小厂的`, whose it is the record does not say) stays where it is."""
    blocks = [
        h("HR面"),
        li("为什么选择我们公司？"),
        li("期望薪资是多少？ 我说了25k"),
        li("有没有其他offer？ 有一个小厂的"),
        li("会用Docker吗？ 我回答不会"),
    ]
    assert read_question_list(blocks) == table(
        [
            ("为什么选择我们公司？", "", "not recorded"),
            ("期望薪资是多少？", "我说了25k", "answered"),
            ("有没有其他offer？ 有一个小厂的", "", "not recorded"),
            ("会用Docker吗？", "我回答不会", "dont_know"),
        ]
    )


def test_an_english_note_that_the_candidate_did_not_answer() -> None:
    blocks = [
        h("Questions"),
        ol(1, "Tell me about the largest system you've owned."),
        li("Owned the billing service, on-call lead.", level=1),
        ol(2, "How do you approach a production incident?"),
        li("Didn't answer; talked about team culture instead.", level=1),
        ol(3, "How do you handle an angry customer?"),
        li("Hmm, I'd have to think about that.", level=1),
    ]
    assert read_question_list(blocks) == table(
        [
            (
                "Tell me about the largest system you've owned.",
                "- Owned the billing service, on-call lead.",
                "answered",
            ),
            (
                "How do you approach a production incident?",
                "- Didn't answer; talked about team culture instead.",
                "empty",
            ),
            (
                "How do you handle an angry customer?",
                "- Hmm, I'd have to think about that.",
                "dont_know",
            ),
        ]
    )


def test_an_items_next_line_that_notes_the_answer_is_no_part_of_the_question() -> None:
    """Markdown joins `1. 项目中遇到的最大难点` and its indented next line `我讲了…` into
    one item: the line that says what the candidate said is its answer, not its
    question. A next line that goes on with the question (wrapped) stays the question."""
    blocks = [
        h("8.17 字节一面", 3),
        ol(1, "项目中遇到的最大难点\n我讲了一个内存泄漏排查的经历，面试官比较满意"),
        ol(2, "HTTP和HTTPS区别？"),
        ol(3, "Tell me about a time when you had to\ndeal with a difficult teammate"),
        ol(4, "讲讲HTTPS握手过程\n回答：只说了证书校验"),
    ]
    assert read_question_list(blocks) == table(
        [
            ("项目中遇到的最大难点", "我讲了一个内存泄漏排查的经历，面试官比较满意", "answered"),
            ("HTTP和HTTPS区别？", "", "not recorded"),
            (
                "Tell me about a time when you had to\ndeal with a difficult teammate",
                "",
                "not recorded",
            ),
            ("讲讲HTTPS握手过程", "回答：只说了证书校验", "answered"),
        ]
    )


@pytest.mark.parametrize(
    "name", ["Interview notes", "Questions and answers", "一面（已出结果，过了）", "技术面"]
)
def test_a_section_whose_name_only_mentions_a_remark_holds_questions(name: str) -> None:
    blocks = [h(name), li("Redis 为什么快"), li("说说 epoll")]
    assert read_question_list(blocks) == table(
        [("Redis 为什么快", "", "not recorded"), ("说说 epoll", "", "not recorded")]
    )


@pytest.mark.parametrize(
    "name", ["总结", "面试感受", "我的反问", "Summary", "Questions for us", "Key takeaways"]
)
def test_a_section_of_remarks_holds_no_question(name: str) -> None:
    blocks = [h("一面"), li("Redis 为什么快"), li("说说 epoll"), h(name), li("团队做什么业务")]
    blocks.append(li("整体体验不错吗"))
    assert read_question_list(blocks) == table(
        [("Redis 为什么快", "", "not recorded"), ("说说 epoll", "", "not recorded")]
    )


@pytest.mark.parametrize(
    "blocks",
    [
        [li("Redis 为什么快"), li("说说 epoll"), p("整体感觉一般，等通知吧")],
        [li("Redis 为什么快"), Block("code", "GET k"), li("说说 epoll"), p("等通知吧")],
    ],
)
def test_a_remark_after_the_list_is_no_answer_of_its_last_question(blocks: list[Block]) -> None:
    assert read_question_list(blocks) == table(
        [("Redis 为什么快", "", "not recorded"), ("说说 epoll", "", "not recorded")]
    )


@pytest.mark.parametrize(
    "blocks",
    [
        pytest.param([p("今天去面试了，聊得不错。"), p("下周等结果。")], id="prose"),
        pytest.param([li("只有一条")], id="one-item"),
        pytest.param(
            [
                li("自我介绍背稿子的感觉太严重！语速极快，别人也听不清。"),
                li("穿西装是不是显得有些刻意？"),
                li("不要被别人影响了，不要被别人的思路禁锢。"),
            ],
            id="reflections",
        ),
        pytest.param(
            [p("8.17 字节一面"), p("8.27 网易游戏二面"), p("9.1 微信一面"), p("12.2 腾讯CDG面试")],
            id="dates-of-interviews",
        ),
        pytest.param(
            [ol(17, "字节一面"), ol(18, "网易游戏二面"), ol(19, "微信一面")],
            id="dates-read-as-a-list",
        ),
        pytest.param(
            [
                li("面试官：介绍一下项目"),
                li("候选人：做过订单系统"),
                li("面试官：为什么用 Redis"),
                li("候选人：不知道"),
            ],
            id="a-dialogue-as-items",
        ),
    ],
)
def test_what_is_no_question_list_is_not_read_as_one(blocks: list[Block]) -> None:
    assert read_question_list(blocks) is None


# -- Q/A dialogues -----------------------------------------------------------------------

QA_LINES = [
    p("Q: 自我介绍一下\nA: 我是张三，做了三年后端。"),
    p("点评：表达清楚，有条理。"),
    p("Q: Redis 的持久化有哪些方式？\nA: 不知道"),
    p("Q: 说说 Kafka 的分区\nA: 这块我没怎么接触过，跳过吧"),
    p("Q: 线程池的核心参数？"),
    p("（面试官补充了题意）"),
    p("（候选人思考后表示不清楚）"),
    p("Q: 最后说说 MVCC\nA: （未作答，直接进入下一题）"),
]
QA_LINES_TABLE: list[Row] = [
    ("自我介绍一下", "我是张三，做了三年后端。", "answered"),
    ("Redis 的持久化有哪些方式？", "不知道", "dont_know"),
    ("说说 Kafka 的分区", "这块我没怎么接触过，跳过吧", "dont_know"),
    ("线程池的核心参数？", "（候选人思考后表示不清楚）", "dont_know"),
    ("最后说说 MVCC", "（未作答，直接进入下一题）", "skipped"),
]

WEN_DA = [
    p("问：你为什么离职？"),
    p("答：想做更大的系统。"),
    p("问：HashMap 的扩容过程"),
    p("答：我不会"),
    p("【问】讲讲 TCP 的三次握手"),
    p("【答】客户端发 SYN，服务端回 SYN+ACK，客户端再回 ACK。"),
    p("【问】你有什么想问我们的吗"),
    p("【答】团队规模多大？"),
]
WEN_DA_TABLE: list[Row] = [
    ("你为什么离职？", "想做更大的系统。", "answered"),
    ("HashMap 的扩容过程", "我不会", "dont_know"),
    ("讲讲 TCP 的三次握手", "客户端发 SYN，服务端回 SYN+ACK，客户端再回 ACK。", "answered"),
]

BOLD_SPEAKERS = [
    p("面试官: 你好，能听到吗？", "面试官"),
    p("候选人: 能听到。", "候选人"),
    p("面试官: 好的，我们开始吧。", "面试官"),
    p("面试官: 先做个自我介绍吧", "面试官"),
    p("候选人: 我叫张三，做了三年后端。", "候选人"),
    p("面试官: 好的，介绍得不错。", "面试官"),
    p("面试官: 介绍一下你做过的项目", "面试官"),
    p("候选人: 我做过一个订单系统，", "候选人"),
    p("负责库存扣减。"),
    p("面试官: 嗯，不错。", "面试官"),
    p("面试官: 为什么用 Redis 做库存？", "面试官"),
    p("候选人: 我不会", "候选人"),
    p("面试官（追问）: 那用数据库行锁呢？", "面试官（追问）"),
    p("候选人: 也不清楚", "候选人"),
    p("候选人（参考）: 库存放 Redis 可以用 DECR 原子扣减。", "候选人（参考）"),
    p("面试官: 你还有什么想问的吗？", "面试官"),
    p("候选人: 多久出结果？", "候选人"),
    p("面试官: 一周内。谢谢！", "面试官"),
]
BOLD_SPEAKERS_TABLE: list[Row] = [
    ("先做个自我介绍吧", "我叫张三，做了三年后端。", "answered"),
    ("介绍一下你做过的项目", "我做过一个订单系统，\n负责库存扣减。", "answered"),
    ("为什么用 Redis 做库存？", "我不会\n也不清楚", "dont_know"),
]

INTERVIEWER_CANDIDATE = [
    p("Interviewer: Hi Alex, can you hear me?"),
    p("Candidate: Yes, loud and clear."),
    p("Interviewer: Tell me about a project you led."),
    h("Billing migration", 3),
    p("Candidate:"),
    li("I led the billing migration."),
    li("We moved 2M accounts."),
    p("Interviewer: How did you handle rollback?"),
    p("Candidate: I don't know."),
    p("Interviewer: Do you have any questions for us?"),
    p("Candidate: What does the team work on?"),
    p("Interviewer: Payments. Thanks for your time!"),
]
INTERVIEWER_CANDIDATE_TABLE: list[Row] = [
    (
        "Tell me about a project you led.",
        "I led the billing migration.\nWe moved 2M accounts.",
        "answered",
    ),
    ("How did you handle rollback?", "I don't know.", "dont_know"),
]

# An AI mock interview: bold speakers with emoji, numbered questions, feedback lines,
# a paragraph holding two speakers' lines, a follow-up that is no question of its own.
AI_MOCK = [
    h("Transcript 1 – Mixed Answers", 2),
    p("AI 🤖: Hello! I am your Excel AI interviewer. Click 'Start Interview' to begin.", "AI 🤖:"),
    p("AI 🤖: Let’s start with the first question!", "AI 🤖:"),
    p("AI 🤖: Q1. What is a cell in Excel?", "AI 🤖:"),
    p(
        "User 👩‍💻: It’s like a formula.\nAI 🤖: Incorrect. Tip: A cell holds data.",
        "User 👩‍💻:",
        "AI 🤖:",
    ),
    p("AI 🤖: Q2. Explain VLOOKUP.\nUser 👩‍💻: I don’t know.", "AI 🤖:", "User 👩‍💻:"),
    p("AI 🤖: Can you try an example?", "AI 🤖:"),
    p("User 👩‍💻: Sorry, no.", "User 👩‍💻:"),
    p("AI 🤖: Interview finished! Check your summary below.", "AI 🤖:"),
    p("Final Score: 0 / 2", "Final Score:"),
]
AI_MOCK_TABLE: list[Row] = [
    ("What is a cell in Excel?", "It’s like a formula.", "answered"),
    ("Explain VLOOKUP.", "I don’t know.\nSorry, no.", "dont_know"),
]


@pytest.mark.parametrize(
    ("blocks", "rows"),
    [
        pytest.param(QA_LINES, QA_LINES_TABLE, id="q-a"),
        pytest.param(WEN_DA, WEN_DA_TABLE, id="wen-da-and-brackets"),
        pytest.param(BOLD_SPEAKERS, BOLD_SPEAKERS_TABLE, id="bold-interviewer-candidate-zh"),
        pytest.param(
            INTERVIEWER_CANDIDATE, INTERVIEWER_CANDIDATE_TABLE, id="interviewer-candidate"
        ),
        pytest.param(AI_MOCK, AI_MOCK_TABLE, id="ai-mock"),
    ],
)
def test_a_qa_record_gives_each_question_the_candidates_own_words(
    blocks: list[Block], rows: list[Row]
) -> None:
    assert read_qa(blocks) == table(rows)


def test_the_candidate_by_name_when_the_interviewer_has_a_role() -> None:
    blocks = [
        p("谢飞机：哎呦，面试官大哥，咋了！", "谢飞机"),
        p("面试官：AQS 你了解吗？", "面试官"),
        p("谢飞机：了解一些，是同步器的框架。", "谢飞机"),
        p("面试官：说说 CAS 的原理", "面试官"),
        p("谢飞机：比较并交换。", "谢飞机"),
        p("时间：2026-11-28"),
    ]
    assert read_qa(blocks) == table(
        [
            ("AQS 你了解吗？", "了解一些，是同步器的框架。", "answered"),
            ("说说 CAS 的原理", "比较并交换。", "answered"),
        ]
    )


def test_a_dialogue_written_as_items_is_read_as_one() -> None:
    blocks = [
        li("面试官：介绍一下项目"),
        li("候选人：做过订单系统"),
        li("面试官：为什么用 Redis"),
        li("候选人：不知道"),
    ]
    assert read_qa(blocks) == table(
        [("介绍一下项目", "做过订单系统", "answered"), ("为什么用 Redis", "不知道", "dont_know")]
    )


def test_a_reflection_after_the_last_answer_is_not_part_of_it() -> None:
    blocks = [
        p("Q: 英语介绍一个光学现象\nA: 色散"),
        p("Q: 抗挫能力\nA: 上大学事多"),
        li("依然是正装，投其所好，挺好的。"),
    ]
    assert read_qa(blocks) == table(
        [("英语介绍一个光学现象", "色散", "answered"), ("抗挫能力", "上大学事多", "answered")]
    )


def test_what_the_candidate_says_after_the_interviewer_signs_off_answers_nothing() -> None:
    """`好的，今天就到这里。` ends the last answer: the candidate's `谢谢面试官。` after it
    is no part of it, and the `跳过吧` before it leaves the question unanswered. A
    backchannel (`嗯。`) does not end an answer."""
    blocks = [
        p("面试官：你好，能听到吗？", "面试官："),
        p("我：能听到。", "我："),
        p("面试官：说说浏览器从输入URL到页面展示发生了什么？", "面试官："),
        p("我：DNS解析，建立TCP连接。", "我："),
        p("面试官：嗯。", "面试官："),
        p("我：然后解析DOM和CSSOM，渲染。", "我："),
        p("面试官：事件循环讲一下？", "面试官："),
        p("我：这块我没怎么接触过，跳过吧。", "我："),
        p("面试官：好的，今天就到这里。", "面试官："),
        p("我：谢谢面试官。", "我："),
    ]
    assert read_qa(blocks) == table(
        [
            (
                "说说浏览器从输入URL到页面展示发生了什么？",
                "DNS解析，建立TCP连接。\n然后解析DOM和CSSOM，渲染。",
                "answered",
            ),
            ("事件循环讲一下？", "这块我没怎么接触过，跳过吧。", "dont_know"),
        ]
    )


@pytest.mark.parametrize(
    "blocks",
    [
        pytest.param([p("今天面了字节，问了很多 Redis 的问题。"), p("感觉还行。")], id="prose"),
        pytest.param(MARKED_BULLETS, id="a-question-list"),
        pytest.param([p("Q: 只有一问\nA: 只有一答")], id="one-exchange"),
        pytest.param([p("Note: bring a pen"), p("Time: 14:00"), p("Place: room 3")], id="labels"),
    ],
)
def test_what_is_no_dialogue_is_not_read_as_one(blocks: list[Block]) -> None:
    assert read_qa(blocks) is None


@pytest.mark.parametrize(
    ("said", "reason"),
    [
        ("不知道", "dont_know"),
        ("这块我没怎么接触过，跳过吧", "dont_know"),
        ("（候选人思考后表示不清楚）", "dont_know"),
        ("（未作答，直接进入下一题）", "skipped"),
        ("确实忘了，只说使用定时器触发", "dont_know"),
        ("没写出来。", "dont_know"),
        ("Didn't answer; talked about team culture instead.", "empty"),
        ("没回答，转而聊了团队文化", "empty"),
        ("Hmm, I'd have to think about that.", "dont_know"),
        ("没答上来。后来查了一下，是解决节点增减时大量key迁移的问题。", "dont_know"),
        ("I didn't know; later I looked it up: it is a min-heap.", "dont_know"),
        ("后来我们重写了调度器，不知道为什么", None),
        ("I'll get back to you on that.", "dont_know"),
        ("I need to think about it more, but my first idea is sharding", None),
        ("I didn't answer it at first, but then I explained the retry queue", None),
        ("写不出来", "dont_know"),
        ("我写出来了，用的是排序后统计正样本的秩", None),
        ("感觉答得不太好", "dont_know"),
        ("answered poorly", "dont_know"),
        ("I don’t know.\nSorry, no.", "dont_know"),
        ("不清楚，但是我猜是用了哈希表来做的", None),
        ("我回答得不对的地方后来改了", None),
        ("Nothing went wrong with it", None),
        ("还好刷视频刷的多，实时性，MMU", None),
        ("思考后表示清楚了", None),
    ],
)
def test_what_an_answer_or_a_mark_says(said: str, reason: str | None) -> None:
    assert non_answer(said) == reason


# -- real files, when ../shared/realworld/ is there -------------------------------------

from support.realworld import REALWORLD  # noqa: E402


def markdown_blocks(text: str) -> list[Block]:
    """The blocks of a Markdown text, as the structure step builds them, by markdown-it-py:
    headings, list items with their depth, paragraphs, code, rules; emphasis set aside."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.front_matter import front_matter_plugin

    found: list[Block] = []
    lists: list[bool] = []
    item: tuple[int, bool] | None = None
    heading = 0
    for token in MarkdownIt("commonmark").use(front_matter_plugin).parse(text):
        if token.type in ("bullet_list_open", "ordered_list_open"):
            lists.append(token.type == "ordered_list_open")
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif token.type == "list_item_open":
            item = (len(lists) - 1, lists[-1])
        elif token.type == "heading_open":
            heading = int(token.tag[1])
        elif token.type == "hr":
            found.append(Block("rule", ""))
        elif token.type in ("fence", "code_block"):
            found.append(Block("code", token.content))
        elif token.type == "inline":
            words, marks = inline(token.children or [])
            if heading:
                found.append(Block("heading", words, level=heading, marks=marks))
            elif item is not None:
                found.append(Block("item", words, level=item[0], marks=marks, ordered=item[1]))
            else:
                found.append(Block("paragraph", words, marks=marks))
            heading, item = 0, None
    return found


def inline(children: list[object]) -> tuple[str, tuple[str, ...]]:
    parts: list[str] = []
    marks: list[str] = []
    opened: list[int] = []
    for child in children:
        kind, content = getattr(child, "type", ""), getattr(child, "content", "")
        if kind in ("strong_open", "em_open"):
            opened.append(len("".join(parts)))
        elif kind in ("strong_close", "em_close"):
            start = opened.pop()
            if not opened and "".join(parts)[start:].strip():
                marks.append("".join(parts)[start:].strip())
        elif kind in ("softbreak", "hardbreak"):
            parts.append("\n")
        elif kind in ("text", "code_inline"):
            parts.append(content)
    return "".join(parts).strip(), tuple(marks)


def counts(found: list[Question] | None) -> tuple[int, int, int, int] | None:
    """(questions, answered, unanswered, answers not recorded)"""
    if found is None:
        return None
    unanswered = sum(q.answer_recorded and not q.answered for q in found)
    return (
        len(found),
        sum(q.answered for q in found),
        unanswered,
        sum(not q.answer_recorded for q in found),
    )


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="../shared/realworld/ is not here")
@pytest.mark.parametrize(
    ("name", "lists", "dialogue"),
    [
        ("cn01_lancerle_kumar.md", (18, 2, 3, 13), None),
        ("cn03_byc_bytedance_frontend.md", (10, 0, 0, 10), None),
        ("cn08_weihngo_records.md", (4, 0, 0, 4), None),
        ("en01_grinnell_user_interview.md", (14, 14, 0, 0), None),
        ("en03_excel_ai_mock.md", None, (9, 8, 1, 0)),
        ("cn14_elliott_zju_interviews.md", None, (15, 11, 4, 0)),  # 还没研究: unanswered
        ("cn09_fungaika_dates.md", None, None),
    ],
)
def test_real_files_give_the_questions_they_hold(
    name: str, lists: tuple[int, int, int, int] | None, dialogue: tuple[int, int, int, int] | None
) -> None:
    blocks = markdown_blocks((REALWORLD / name).read_text(encoding="utf-8"))
    assert counts(read_question_list(blocks)) == lists
    assert counts(read_qa(blocks)) == dialogue
