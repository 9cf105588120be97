"""Reviewers' notes, labelled (issue 45): what people write in a verdict's thread about
the seeds, in Chinese (简体 and 繁體) and English, each note with the unanswered
questions it credits the candidate on, or none, and why. bench/claims.py prints the
check's precision and recall on them; tests/test_claims.py holds the check to them.

A note is a claim when it credits the candidate with an answer, a view, knowledge or a
skill on the topic of a question the transcript left unanswered: by naming the question
or by speaking of its topic, plainly or in a decision's reason, in any language. A note
is no claim when it praises what was answered, when it is generic, when it criticises or
says the question went unanswered, when it suggests what to ask next, asks a question,
wishes, doubts, or reports what the candidate claims of himself, or when its only link
to an open question is a word every question (or an answer given) also says.

Each set is one seed (`seeds/<seed>_*.txt`) with `emptied` answers removed on top of its
own; its notes are checked one at a time, as a thread reply is, and scored note by
note: a (note, question) pair flagged is right when the note is labelled with that
question."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Noted:
    text: str
    questions: tuple[int, ...]  # the unanswered questions the note credits
    reason: str


@dataclass(frozen=True)
class NoteSet:
    seed: str
    emptied: tuple[int, ...]
    about: str  # the questions left open, for whoever reads the labels
    notes: tuple[Noted, ...]


def claim(text: str, *questions: int, why: str) -> Noted:
    return Noted(text, questions, why)


def fair(text: str, why: str) -> Noted:
    return Noted(text, (), why)


NOTE_SETS: list[NoteSet] = [
    NoteSet(
        "000",
        (),
        "Q2 (高级分布式编程模型: Replicated training, All-Reduce, 优缺点) and Q3 (分布式 "
        "TensorFlow 服务, Client/Server 架构) unanswered; Q1 (低级分布式编程模型, 数据并行, "
        "图间复制), Q4 (a training challenge), Q5 (applications) answered",
        (
            claim("高级分布式编程模型这一块他也很熟。", 2, why="credits Q2's topic plainly"),
            claim("通过，Client/Server架构讲得非常好。", 3, why="a decision whose reason is Q3"),
            claim(
                "分布式TensorFlow服务的部署方式他讲得很清楚。",
                3,
                why="credits Q3 (分布式 TensorFlow 服务)",
            ),
            claim(
                "He explained the trade-offs of All-Reduce versus replicated training very well.",
                2,
                why="English, on Q2's All-Reduce and its trade-offs",
            ),
            claim(
                "All-Reduce 和 Replicated training 的区别他说得很透。",
                2,
                why="Q2's two models, credited",
            ),
            claim(
                "他对Client/Server架构在实际项目里的应用有自己的见解。",
                3,
                why="a view on Q3's topic",
            ),
            claim("第二题他答得挺好的。", 2, why="names Q2, which is empty"),
            claim("问题3回答得很完整。", 3, why="names Q3, which is empty"),
            claim(
                "Q2: solid answer, knew the pros and cons of All-Reduce.",
                2,
                why="names Q2 and credits it",
            ),
            claim(
                "待定，All-Reduce他能说出优缺点，但项目经验偏少。",
                2,
                why="a hold whose reason credits Q2; the criticism is of something else",
            ),
            claim("高級分佈式編程模型這一塊他也很熟。", 2, why="繁體: credits Q2's topic"),
            claim("Client/Server架構他講得非常清楚。", 3, why="繁體: credits Q3's topic"),
            claim(
                "他在分布式TensorFlow服务上有实战经验，讲了很多部署细节。",
                3,
                why="credits experience on Q3's topic",
            ),
            claim(
                "Strong grasp of the client/server architecture behind distributed TensorFlow.",
                3,
                why="English, Q3's Client/Server architecture",
            ),
            claim(
                "他讲了Replicated training怎么在多卡之间同步，思路清晰。",
                2,
                why="credits an answer on Q2's Replicated training",
            ),
            claim("问题2和问题3他都答得不错，逻辑清楚。", 2, 3, why="names Q2 and Q3, both empty"),
            claim(
                "他对All-Reduce的通信开销分析得很到位。",
                2,
                why="credits an analysis of Q2's All-Reduce",
            ),
            claim(
                "建议录用：Client/Server架构的取舍讲得很透彻。",
                3,
                why="a recommendation whose reason credits Q3",
            ),
            claim(
                "问题3他没回答，但All-Reduce的优缺点讲得很清楚。",
                2,
                why="says Q3 went unanswered, and the contrast credits Q2",
            ),
            claim(
                "Great answer on All-Reduce, though he skipped the Client/Server question.",
                2,
                why="credits Q2; says Q3 was skipped (no claim on Q3)",
            ),
            claim(
                "He walked us through how the client/server setup of distributed TensorFlow "
                "works in production.",
                3,
                why="credits an account of Q3's topic",
            ),
            claim(
                "Replicated training與All-Reduce的優缺點，他分析得相當到位。",
                2,
                why="繁體: credits Q2",
            ),
            claim("第三題答得不錯。", 3, why="繁體: names Q3"),
            claim(
                "Q3 was his best answer, very practical.",
                3,
                why="names Q3 and credits it",
            ),
            fair("下一轮可以追问他对All-Reduce的理解。", "a suggestion for the next round"),
            fair(
                "建议二面重点考察Client/Server架构的实际经验。",
                "a suggestion for the second round",
            ),
            fair(
                "Next round should probe his understanding of All-Reduce.",
                "a suggestion for the next round",
            ),
            fair("问题2和问题3都是空的，没法据此判断。", "says both were empty"),
            fair("不通过，缓存设计说不清。", "a rejection whose reason names no question here"),
            fair(
                "他对低级分布式编程模型理解很深，数据并行讲得很细。",
                "Q1's topic, answered",
            ),
            fair("数据并行和图间复制这两块他讲得很扎实。", "Q1's topic, answered"),
            fair("模型剪枝和量化的经验很实用。", "Q4's answer, given"),
            fair("他举的推荐系统和情感分析的场景都很贴切。", "Q5's answer, given"),
            fair(
                "Client/Server架构那题他没有作答，建议下轮补问。",
                "says Q3 went unanswered, and suggests asking",
            ),
            fair("All-Reduce 的优缺点他没讲，只说了参数服务器。", "says Q2 was not covered"),
            fair(
                "He mentioned training on dozens of machines, which was convincing.",
                "`training` is Q2's word, but Q4's answer says it: supported",
            ),
            fair(
                "His training pipeline work sounded solid.",
                "a single plain word (`training`) that Q2 also says decides nothing",
            ),
            fair("Q2和Q3需要在二面确认。", "a plan for the second round"),
            fair("他真的理解All-Reduce吗？", "a question, credits nothing"),
            fair(
                "如果他能讲清楚All-Reduce的优缺点，我会给通过。",
                "a condition, not something he did",
            ),
            fair(
                "他简历上写着熟悉Client/Server架构，但面试里这题是空的。",
                "what his résumé claims, and that the answer is empty",
            ),
            fair("All-Reduce这块他理解得比较浅。", "criticism credits nothing"),
            fair("沟通顺畅，表达有条理。", "generic"),
            fair("总体偏弱，不建议进入下一轮。", "generic"),
            fair("待定：问题3空着，等二面再看。", "a hold: Q3 empty, wait for the next round"),
            fair("@U02ABC 你怎么看他Client/Server那题？", "a question to another reviewer"),
            fair(
                "问题2问的是Replicated training和All-Reduce的优缺点。",
                "describes the question",
            ),
            fair("低級分佈式編程模型他很熟。", "繁體, Q1's topic: answered"),
            fair(
                "He knows data parallelism and between-graph replication well.",
                "Q1's topic, answered",
            ),
            fair(
                "Not sure he really understands client/server trade-offs; worth a follow-up.",
                "a doubt and a suggestion",
            ),
            fair("We didn't get to Q2 or Q3 in the time we had.", "says they went unanswered"),
            fair("通过。", "a decision alone"),
            fair(
                "不通过，All-Reduce和Client/Server架构两题都答不上来。",
                "a rejection: both unanswered",
            ),
            fair(
                "希望下一轮能听他讲讲分布式TensorFlow服务。",
                "a wish for the next round",
            ),
            fair("下一輪請追問All-Reduce的優缺點。", "繁體: a suggestion"),
            fair("他對Client/Server架構的理解還有待驗證。", "繁體: still to be verified"),
            fair(
                "Would like to hear how he'd design the client/server split next time.",
                "a wish for next time",
            ),
            fair(
                "Please ask about All-Reduce in the onsite.",
                "a request for the onsite",
            ),
            fair(
                "图像分类那个项目讲得很生动，batch size和learning rate的调参有章法。",
                "Q4's answer, given",
            ),
            fair("All-Reduce那题是空白，可能是录音问题。", "says Q2 is blank"),
            fair(
                "Q2 and Q3 are blank in the transcript — did anyone ask them?",
                "says they are blank, and asks",
            ),
            fair("表达能力不错，人也很踏实。", "generic praise"),
            fair(
                "他对分布式TensorFlow的大规模应用场景很有见地。",
                "Q5's topic (应用场景), answered",
            ),
        ),
    ),
    NoteSet(
        "004",
        (),
        "Q5 (利用 TensorFlow 进行分布式训练) unanswered; Q1 (构建模型), Q2 (特征工程), Q3 "
        "(LazyBuilder), Q4 (StateManager), Q6 (EmbeddingColumn) answered",
        (
            claim(
                "He explained distributed training with TensorFlow in real depth.",
                5,
                why="English, credits Q5",
            ),
            claim(
                "分布式训练这块他很有经验，讲了参数服务器和Ring AllReduce。",
                5,
                why="credits Q5's distributed training",
            ),
            claim(
                "他用 MirroredStrategy 做过多机多卡的分布式训练，讲得很细。",
                5,
                why="credits Q5",
            ),
            claim("分佈式訓練他講得很清楚。", 5, why="繁體: credits Q5"),
            claim("Q5答得不错，思路清晰。", 5, why="names Q5, which is empty"),
            claim(
                "Strong on distributed training: data parallelism, parameter servers, the lot.",
                5,
                why="English, credits Q5",
            ),
            claim("通过，TensorFlow分布式训练的实践经验丰富。", 5, why="a decision's reason: Q5"),
            claim(
                "Solid answer on how he'd scale TensorFlow training across machines with "
                "distributed strategies.",
                5,
                why="credits an answer on Q5's topic",
            ),
            fair("LazyBuilder 讲得很清楚。", "Q3's topic, answered"),
            fair("EmbeddingColumn 的例子举得不错。", "Q6's topic, answered"),
            fair(
                "特征工程那题准确率从60%提到80%的例子很有说服力。",
                "Q2's answer, given",
            ),
            fair("下一轮可以问问他怎么用TensorFlow做分布式训练。", "a suggestion"),
            fair("Q5 was left blank; worth asking in the next round.", "says Q5 is blank"),
            fair(
                "He talked about mixed precision training and XLA convincingly.",
                "Q1's answer (mixed precision training, XLA), given",
            ),
            fair("分布式训练那题是空的。", "says Q5 is empty"),
            fair("他对 TensorFlow 很熟。", "TensorFlow is in most questions: no topic"),
            fair("He has three years of video engineering experience.", "generic"),
            fair("StateManager 的作用他说得挺明白。", "Q4's topic, answered"),
            fair("建议二面重点考察分布式训练的实际经验。", "a suggestion"),
            fair("分布式训练他是不是真做过？", "a question"),
            fair(
                "不通过。分布式训练那题完全没答，其他回答也偏空泛。",
                "a rejection: Q5 not answered",
            ),
            fair("The LazyBuilder explanation was clear and practical.", "Q3, answered"),
            fair("模型的可扩展性和泛化能力考虑得很全面。", "Q1's answer, given"),
            fair(
                "Training efficiency came up a lot; he clearly cares about it.",
                "`training` and efficiency: Q1's answer says both",
            ),
            fair("分散式訓練這題沒有回答，建議下一輪再問。", "繁體: says Q5 went unanswered"),
            fair("Ask him how he'd set up multi-worker training.", "a request to ask"),
        ),
    ),
    NoteSet(
        "004",
        (3,),
        "Q3 (LazyBuilder) and Q5 (分布式训练) unanswered",
        (
            claim("LazyBuilder 讲得很清楚。", 3, why="credits Q3, now empty"),
            claim(
                "He clearly understands how LazyBuilder avoids unnecessary computation.",
                3,
                why="English, credits Q3",
            ),
            claim(
                "LazyBuilder 的惰性计算原理他理解得很透彻。",
                3,
                why="credits Q3",
            ),
            fair("LazyBuilder 那题没答，二面再问。", "says Q3 went unanswered"),
            fair("EmbeddingColumn 的例子举得不错。", "Q6, answered"),
            fair("Ask about LazyBuilder next time.", "a suggestion"),
            fair("StateManager 讲得挺清楚的。", "Q4, answered"),
        ),
    ),
    NoteSet(
        "004",
        (6,),
        "Q5 (分布式训练) and Q6 (EmbeddingColumn) unanswered",
        (
            claim("EmbeddingColumn 的例子举得不错。", 6, why="credits Q6, now empty"),
            claim(
                "他对 EmbeddingColumn 怎么处理离散特征讲得很清楚。",
                6,
                why="credits Q6",
            ),
            claim(
                "Nice explanation of EmbeddingColumn for sparse word features.",
                6,
                why="English, credits Q6",
            ),
            fair("EmbeddingColumn 那题空着，我没法判断。", "says Q6 is empty"),
            fair("建议下一轮考察 EmbeddingColumn 的使用。", "a suggestion"),
            fair("特征工程的例子讲得不错。", "Q2, answered"),
        ),
    ),
    NoteSet(
        "002",
        (),
        "Q4 (使用 TensorFlow 框架设计和实现神经网络模型) unanswered, but every other answer "
        "says it",
        (
            fair(
                "他在TensorFlow框架下设计神经网络模型的能力很强。",
                "Q4's topic, which Q1, Q3 and Q7's answers say",
            ),
            fair("数据流图那题讲得很细。", "Q1, answered"),
            fair("问题4没回答，不过其他题已经覆盖了。", "says Q4 went unanswered"),
            fair("He is a strong neural network designer overall.", "generic"),
        ),
    ),
    NoteSet(
        "002",
        (6,),
        "Q4 and Q6 (损失函数和优化算法的选择) unanswered",
        (
            claim("损失函数和优化算法的选择他讲得很有条理。", 6, why="credits Q6"),
            claim(
                "He gave a thoughtful account of how he picks loss functions and optimization "
                "algorithms.",
                6,
                why="English, credits Q6",
            ),
            claim("第六题回答得很扎实。", 6, why="names Q6"),
            fair("损失函数那题没答。", "says Q6 went unanswered"),
            fair("图操作和图优化都讲得不错。", "Q2 and Q3, answered"),
            fair("建议下一轮问问损失函数怎么选。", "a suggestion"),
        ),
    ),
    NoteSet(
        "002",
        (3,),
        "Q3 (图优化在神经网络模型设计中的重要性) and Q4 unanswered",
        (
            claim("图优化的重要性他阐述得很透彻。", 3, why="credits Q3"),
            claim("圖優化的重要性他闡述得很透徹。", 3, why="繁體: credits Q3"),
            fair("图优化那题是空的，建议下一轮追问。", "says Q3 is empty"),
            fair("分布式图操作的方案讲得很清楚。", "Q2, answered"),
        ),
    ),
    NoteSet(
        "002",
        (2,),
        "Q2 (分布式环境下的图操作问题) and Q4 unanswered",
        (
            fair(
                "分布式环境下的图操作问题他解决得很漂亮。",
                "Q2's topic, but Q1's answer says 分布式环境下的图操作: supported",
            ),
            fair("图操作那题跳过了。", "says Q2 was skipped"),
            fair("损失函数的选择讲得很有条理。", "Q6, answered"),
        ),
    ),
    NoteSet(
        "003",
        (),
        "every question answered",
        (
            fair("他对Kubernetes单机原理讲得很清楚。", "Q5, answered"),
            fair("He explained backpropagation clearly.", "Q1, answered"),
            fair("弹性训练那题比喻太多，干货偏少。", "criticism of an answer given"),
            fair("下一轮可以多问问推荐系统。", "a suggestion"),
        ),
    ),
    NoteSet(
        "003",
        (5,),
        "Q5 (Kubernetes 单机原理的难题) unanswered",
        (
            claim(
                "他对Kubernetes单机模式和分布式模式的区别讲得很清楚。",
                5,
                why="credits Q5",
            ),
            claim("Kubernetes单机原理他很熟。", 5, why="credits Q5"),
            claim("He knows Kubernetes internals well.", 5, why="English, credits Q5"),
            fair("Kubernetes那题没有回答。", "says Q5 went unanswered"),
            fair("Worth probing Kubernetes in the next round.", "a suggestion"),
            fair("矩阵推导的挑战讲得很真实。", "Q3, answered"),
        ),
    ),
    NoteSet(
        "003",
        (9,),
        "Q9 (推荐系统模型的发展趋势) unanswered",
        (
            claim(
                "他对推荐系统的发展趋势把握得很准。",
                9,
                why="credits Q9",
            ),
            claim(
                "Good take on where recommendation system models are heading.",
                9,
                why="English, credits Q9",
            ),
            fair("推荐系统那题没回答。", "says Q9 went unanswered"),
            fair("推薦系統的發展趨勢建議下一輪再聊。", "繁體: a suggestion"),
            fair("弹性训练的比喻很形象。", "Q7, answered"),
        ),
    ),
    NoteSet(
        "003",
        (2,),
        "Q2 (最喜欢的深度学习框架, 理由) unanswered",
        (
            claim(
                "他说明了为什么最喜欢TensorFlow，理由很充分。",
                2,
                why="credits Q2 (his favourite framework and why)",
            ),
            fair("框架偏好那题是空的。", "says Q2 is empty"),
            fair("自定义算子扩展TensorFlow的经验很扎实。", "Q10, answered"),
        ),
    ),
    NoteSet(
        "003",
        (7,),
        "Q7 (弹性训练技术) unanswered",
        (
            claim("弹性训练技术他理解得很深入。", 7, why="credits Q7"),
            claim(
                "He has real hands-on experience with elastic training.",
                7,
                why="English, credits Q7",
            ),
            fair(
                "Elastic training wasn't covered; probe it next round.",
                "says Q7 was not covered",
            ),
            fair("嵌入式训练的内存优化讲得不错。", "Q8, answered"),
        ),
    ),
    NoteSet(
        "003",
        (8,),
        "Q8 (嵌入式训练的棘手问题) unanswered",
        (
            claim("嵌入式训练遇到的问题他处理得很好。", 8, why="credits Q8"),
            fair("嵌入式训练这题需要二面确认。", "a plan for the second round"),
        ),
    ),
    NoteSet(
        "003",
        (10,),
        "Q10 (扩展 TensorFlow 功能) unanswered",
        (
            claim("自定义算子扩展TensorFlow这块他很有经验。", 10, why="credits Q10"),
            claim("问题10答得很有创意。", 10, why="names Q10"),
            fair("扩展TensorFlow功能那题没答。", "says Q10 went unanswered"),
            fair("Kubernetes 的资源调度讲得很实在。", "Q5, answered"),
        ),
    ),
    # a second batch, written after the check was first tuned: kept as it was written
    NoteSet(
        "000",
        (),
        "Q2 and Q3 unanswered (a second batch)",
        (
            claim(
                "关于All-Reduce，他能把环形通信的过程讲明白。",
                2,
                why="credits an account of Q2's All-Reduce",
            ),
            claim(
                "我觉得他Client/Server这块是真懂。",
                3,
                why="credits knowledge of Q3's Client/Server",
            ),
            claim(
                "他把Replicated training的原理说得头头是道。",
                2,
                why="credits Q2's Replicated training",
            ),
            claim(
                "All-Reduce的优势和局限他都点到了。",
                2,
                why="Q2's All-Reduce and its 优缺点 (said 优势和局限), credited",
            ),
            claim(
                "TensorFlow的Client/Server部署他做过不少，细节丰富。",
                3,
                why="credits experience on Q3",
            ),
            claim(
                "强烈推荐，高级分布式编程模型的理解远超同级。",
                2,
                why="a strong hire whose reason credits Q2",
            ),
            claim("He clearly knows All-Reduce inside out.", 2, why="English, credits Q2"),
            claim(
                "Impressive depth on the client/server model of distributed TensorFlow.",
                3,
                why="English, credits Q3",
            ),
            claim(
                "Hire. His take on replicated training vs All-Reduce was spot on.",
                2,
                why="a hire, then a sentence crediting Q2",
            ),
            claim("Q2 answer was very thorough.", 2, why="names Q2, which is empty"),
            claim("問題二回答得很好。", 2, why="繁體: names Q2"),
            claim("他對All-Reduce的優缺點分析得很清楚。", 2, why="繁體: credits Q2"),
            claim("第2题和第3题表现都很亮眼。", 2, 3, why="names Q2 and Q3, both empty"),
            fair("All-Reduce这块没来得及问。", "says Q2 was not asked"),
            fair("二面请重点问下Client/Server架构。", "a request for the second round"),
            fair("他在All-Reduce上明显准备不足。", "criticism: credits nothing"),
            fair(
                "Client/Server架构相关的问题，他回答得很含糊。",
                "criticism: a vague answer credits nothing",
            ),
            fair("I'd want to hear him on All-Reduce before deciding.", "a wish"),
            fair("He seemed unfamiliar with All-Reduce.", "says he did not know it"),
            fair("Can someone confirm whether Q3 was actually asked?", "a question"),
            fair("问题2、问题3空着，是漏记了还是没答？", "says both are empty, and asks"),
            fair("不通过：高级分布式编程模型一问三不知。", "a rejection: he knew nothing of Q2"),
            fair(
                "他说自己做过Client/Server架构的项目，但没有细讲。",
                "what he says of himself, not what he showed",
            ),
            fair("数据并行讲得很好，图间复制也清楚。", "Q1, answered"),
            fair("He handled the image classification challenge well.", "Q4, answered"),
            fair("整体沟通很顺畅，态度积极。", "generic"),
            fair("All-Reduce 和 Replicated training 下次再聊。", "a plan for next time"),
            fair("推荐系统和NLP的应用场景举例充分。", "Q5, answered"),
            fair(
                "Overall I'm leaning hire, pending the distributed TensorFlow questions.",
                "generic; nothing credited on the open questions",
            ),
            fair("他對低級分佈式編程的理解很紮實。", "繁體, Q1: answered"),
            fair("Let's cover All-Reduce in the system design round.", "a plan"),
            fair("Replicated training 这个概念他好像没听说过。", "says he had not heard of it"),
        ),
    ),
    NoteSet(
        "004",
        (),
        "Q5 unanswered (a second batch)",
        (
            claim("分布式训练的经验很扎实，参数服务器和AllReduce都用过。", 5, why="credits Q5"),
            claim(
                "He has clearly run distributed training jobs at scale.",
                5,
                why="English, credits Q5",
            ),
            claim("Q5讲得非常清楚。", 5, why="names Q5, which is empty"),
            claim("用TensorFlow做分布式训练，他讲得很有条理。", 5, why="credits Q5"),
            claim("分佈式訓練的實戰經驗很豐富。", 5, why="繁體: credits Q5"),
            fair("分布式训练这块需要下一轮再看看。", "a plan for the next round"),
            fair("Q5 blank — no idea how he'd do distributed training.", "says Q5 is blank"),
            fair("他对分布式训练的理解似乎停留在概念层面。", "criticism: credits nothing"),
            fair("特征缩放和特征选择讲得挺实在。", "Q2's answer, given"),
            fair("XLA和混合精度训练讲得很到位。", "Q1's answer, given"),
            fair("LazyBuilder和StateManager都答得清楚。", "Q3 and Q4, answered"),
            fair(
                "He is good with TensorFlow in general.",
                "TensorFlow is in most questions: no topic",
            ),
            fair("EmbeddingColumn answer was solid.", "Q6, answered"),
            fair("建议下一轮请他讲讲分布式训练。", "a suggestion"),
            fair("Did he mention distributed training anywhere?", "a question"),
        ),
    ),
    NoteSet(
        "003",
        (4,),
        "Q4 (Model/Layer 抽象) unanswered",
        (
            claim("Model/Layer抽象他理解得很到位，比喻也生动。", 4, why="credits Q4"),
            claim(
                "He explained the Model/Layer abstraction with a good example.",
                4,
                why="English, credits Q4",
            ),
            fair("Model/Layer抽象那题没答。", "says Q4 went unanswered"),
            fair("前向后向传播的比喻很形象。", "Q1, answered"),
            fair("Kubernetes 单机原理讲得不错。", "Q5, answered"),
        ),
    ),
    NoteSet(
        "003",
        (6,),
        "Q6 (分布式训练项目中的角色和贡献) unanswered",
        (
            claim("他在分布式训练项目里的角色和贡献讲得很清楚。", 6, why="credits Q6"),
            claim(
                "He described his role in the distributed training project convincingly.",
                6,
                why="English, credits Q6",
            ),
            fair("分布式训练项目那题是空的，建议复试确认。", "says Q6 is empty"),
            fair("弹性训练讲得一般。", "Q7, answered (and middling)"),
        ),
    ),
    NoteSet(
        "002",
        (6,),
        "Q4 and Q6 unanswered (a second batch)",
        (
            claim("交叉熵损失函数怎么选，他讲得很清楚。", 6, why="credits Q6 (损失函数)"),
            claim(
                "Loss function and optimizer choices were well argued.",
                6,
                why="English, credits Q6",
            ),
            fair("损失函数和优化算法这题，下一轮再问。", "a plan for the next round"),
            fair(
                "He could not say why he'd pick one loss function over another.",
                "says he could not",
            ),
        ),
    ),
    # a third batch, in the style of Slack threads, written after the second
    NoteSet(
        "000",
        (),
        "Q2 and Q3 unanswered (a third batch: Slack style)",
        (
            claim("+1，All-Reduce那段讲得挺扎实的", 2, why="agrees, and credits Q2"),
            claim(
                "Strong hire 👍 client/server 那块很有经验", 3, why="a decision with a reason on Q3"
            ),
            claim(
                "- Q2：答得很好，Ring All-Reduce的带宽分析很清楚\n- Q4：一般",
                2,
                why="a bulleted note crediting Q2",
            ),
            claim("个人觉得他对 replicated training 的理解挺深的", 2, why="credits Q2"),
            claim("他的All-Reduce讲解比我预期的好很多", 2, why="credits Q2"),
            claim("分布式TF的server/client模式他说得门儿清", 3, why="credits Q3"),
            claim(
                "Hire - really liked his answer on All-Reduce.",
                2,
                why="a hire whose reason credits Q2",
            ),
            claim(
                "He gave a crisp explanation of the client/server architecture.",
                3,
                why="credits Q3",
            ),
            claim("<@U0ABC> 我觉得Q3他答得挺好", 3, why="names Q3 to another reviewer"),
            claim("All-Reduce 部分 impressive 👏", 2, why="credits Q2 in mixed languages"),
            fair("同意楼上 👍", "agrees, says nothing of a question"),
            fair("<@U0ABC> All-Reduce 那题你问了吗？", "a question to another reviewer"),
            fair("Q2/Q3 没有记录，回头补一下", "says nothing was written; a plan"),
            fair("All-Reduce 待二面验证", "to be verified in the second round"),
            fair("Hold - need more signal on All-Reduce.", "a hold: more to learn"),
            fair("No hire. Couldn't explain All-Reduce at all.", "a rejection: he could not"),
            fair("他对Client/Server架构几乎没有概念", "criticism: he had no notion of it"),
            fair("All-Reduce 他只知道名字，原理说不上来", "criticism: he could not say"),
            fair("面试时间不够，Client/Server没问到", "says Q3 was not asked"),
            fair("整体 OK，低级分布式编程那块讲得很细", "Q1, answered"),
            fair("图像分类项目的挑战讲得很清楚 ✅", "Q4, answered"),
            fair("TensorFlow 用得挺熟", "TensorFlow is in most questions: no topic"),
            fair("I'll ask about replicated training on Thursday.", "a plan"),
            fair("Anyone know why Q2 is blank?", "a question"),
            fair(
                "建议offer，但All-Reduce需要复试确认", "an offer proposed, and Q2 still to confirm"
            ),
        ),
    ),
    NoteSet(
        "004",
        (),
        "Q5 unanswered (a third batch)",
        (
            claim("分布式训练那块他讲得特别好，多机多卡都搞过", 5, why="credits Q5"),
            claim("Hire: great depth on distributed training.", 5, why="a hire whose reason is Q5"),
            claim("Q5 很棒 👍", 5, why="names Q5"),
            fair("Q5 没答，其余都OK", "says Q5 went unanswered"),
            fair("分布式训练有待考察", "still to be examined"),
            fair("他的训练效率优化思路不错", "Q1's answer (训练效率), given"),
            fair("I wonder if he has ever done distributed training.", "a doubt"),
            fair("StateManager 的例子举得好", "Q4, answered"),
        ),
    ),
    NoteSet(
        "003",
        (5, 9),
        "Q5 (Kubernetes) and Q9 (推荐系统趋势) unanswered",
        (
            claim("K8s单机原理他说得很清楚", 5, why="credits Q5 (K8s is Kubernetes)"),
            claim("推荐系统的新方向他聊得很有见地，比如图神经网络和联邦学习", 9, why="credits Q9"),
            claim("He had a good take on recommender system trends.", 9, why="credits Q9"),
            fair("Kubernetes 的题建议下一轮问", "a suggestion"),
            fair("推荐系统那题空白", "says Q9 is blank"),
            fair("分布式训练项目中的角色讲得很清楚", "Q6, answered"),
        ),
    ),
    # a fourth batch, on denials and plans said otherwise, written after the third
    NoteSet(
        "000",
        (),
        "Q2 and Q3 unanswered (a fourth batch)",
        (
            claim("讲All-Reduce的时候逻辑非常清晰。", 2, why="credits Q2"),
            claim("对Client/Server架构的把握比较到位。", 3, why="credits Q3"),
            claim("Client/Server架构是他的强项。", 3, why="credits Q3"),
            claim("分布式TensorFlow服务这块没有短板。", 3, why="credits Q3: no weak spot"),
            claim("Nailed the All-Reduce question.", 2, why="credits Q2"),
            claim("All-Reduce: excellent.", 2, why="credits Q2"),
            claim("Knows his stuff on client/server architecture.", 3, why="credits Q3"),
            claim(
                "He's clearly worked with All-Reduce in production.",
                2,
                why="credits experience on Q2",
            ),
            claim("Client/server architecture — very strong.", 3, why="credits Q3"),
            claim(
                "录用。理由：Replicated training和All-Reduce的对比讲得很透。",
                2,
                why="a hire, and a reason crediting Q2",
            ),
            claim("高級分佈式編程模型的優缺點，他講得頭頭是道。", 2, why="繁體: credits Q2"),
            claim("他對分佈式TensorFlow服務的部署很有經驗。", 3, why="繁體: credits Q3"),
            claim("第三个问题答得相当漂亮。", 3, why="names Q3"),
            claim("Question 2 was handled really well.", 2, why="names Q2"),
            fair("他对All-Reduce并不熟悉。", "says he is not familiar"),
            fair("All-Reduce一窍不通。", "says he knows nothing of it"),
            fair("Client/Server架构谈不上熟悉。", "says he is not really familiar"),
            fair("没看出他懂All-Reduce。", "says it did not show"),
            fair("缺少对Client/Server架构的理解。", "says he lacks it"),
            fair("他把All-Reduce和参数服务器搞混了。", "says he mixed them up"),
            fair("He had trouble with All-Reduce.", "says he struggled"),
            fair("He mixed up All-Reduce and parameter servers.", "says he confused them"),
            fair("Little depth on the client/server architecture.", "criticism"),
            fair("Barely touched on All-Reduce.", "criticism: barely"),
            fair("Needs a deeper look at All-Reduce.", "a plan"),
            fair("TODO: ask about All-Reduce.", "a plan"),
            fair("Open question: does he know All-Reduce?", "a question"),
            fair("留给二面：Client/Server架构。", "left for the second round"),
            fair("All-Reduce这块算不上强项。", "says it is not a strength"),
            fair("只会背All-Reduce的定义，没有自己的理解。", "criticism"),
            fair("他的数据并行方案讲得非常清楚，可以直接落地。", "Q1, answered"),
            fair("卷积网络那个项目的挑战讲得很具体。", "Q4, answered"),
            fair("The recommendation and NLP use cases he gave were convincing.", "Q5, answered"),
            fair("团队协作意识不错。", "generic"),
            fair("薪资期望偏高，需要HR跟进。", "logistics"),
        ),
    ),
    NoteSet(
        "002",
        (3,),
        "Q3 (图优化) and Q4 unanswered (a fourth batch)",
        (
            claim("他对图优化能降低计算量这一点讲得很透。", 3, why="credits Q3"),
            claim(
                "Graph optimization was a highlight of the interview.", 3, why="English, credits Q3"
            ),
            fair("图优化那道题下次再问。", "a plan"),
            fair("He did not get to graph optimization.", "says it was not covered"),
            fair("损失函数和优化算法的选择讲得很有条理。", "Q6, answered"),
        ),
    ),
    NoteSet(
        "004",
        (2,),
        "Q2 (特征工程) and Q5 unanswered",
        (
            claim("特征工程对模型性能的影响他举例很到位。", 2, why="credits Q2"),
            fair(
                "He showed a solid grasp of feature engineering.",
                "feature engineering in general: Q3's answer (LazyBuilder for 特征工程) says it",
            ),
            fair("特征工程那题没记录。", "says nothing was written"),
            fair("LazyBuilder 的原理讲得很清楚。", "Q3, answered"),
        ),
    ),
    # a fifth batch: Taiwan's words, mild praise and criticism, questions without a
    # question mark, notes of two sentences; written after the fourth
    NoteSet(
        "000",
        (),
        "Q2 and Q3 unanswered (a fifth batch)",
        (
            claim(
                "對分散式TensorFlow服務的部署很熟。", 3, why="繁體 (Taiwan's 分散式): credits Q3"
            ),
            claim(
                "Client/Server架構在實際專案中的應用，他講得很有條理。", 3, why="繁體: credits Q3"
            ),
            claim("他对All-Reduce有一定了解，能说个大概。", 2, why="credits some knowledge of Q2"),
            claim("All-Reduce基本答上来了。", 2, why="credits an answer on Q2"),
            claim("Replicated training 还行吧，思路是对的。", 2, why="mild credit on Q2"),
            claim("He did well on the All-Reduce trade-offs.", 2, why="credits Q2"),
            claim(
                "He was able to reason through the client/server split of distributed TensorFlow.",
                3,
                why="credits Q3",
            ),
            claim(
                "沟通不错。All-Reduce的优缺点也讲得很清楚。",
                2,
                why="two sentences: the second credits Q2",
            ),
            claim("Solid overall. Q3 in particular was great.", 3, why="names Q3"),
            fair("他到底懂不懂All-Reduce", "asks whether he knows it"),
            fair("All-Reduce答得马马虎虎。", "mediocre: criticism"),
            fair("Meh on All-Reduce.", "criticism"),
            fair("All-Reduce 那题他会不会，二面确认一下。", "asks, and plans"),
            fair("沟通不错。问题2和问题3都没有回答。", "generic, then says both went unanswered"),
            fair("他說他做過分散式TensorFlow服務，但沒講細節。", "繁體: what he says of himself"),
            fair("低級分散式程式設計模型講得很紮實。", "繁體 (Taiwan): Q1, answered"),
            fair("Honestly not convinced he understands All-Reduce.", "doubt"),
            fair("Q3 was skipped for time.", "says Q3 was skipped"),
            fair("面试官没来得及问All-Reduce。", "says it was not asked"),
            fair("All-Reduce/Client-Server 需要 follow up。", "a plan"),
        ),
    ),
    NoteSet(
        "004",
        (),
        "Q5 unanswered (a fifth batch)",
        (
            claim("分散式訓練他做過很多，講得很深入。", 5, why="繁體 (Taiwan): credits Q5"),
            claim(
                "He knows how to distribute TensorFlow training across GPUs.", 5, why="credits Q5"
            ),
            fair("分散式訓練那題空白。", "繁體: says Q5 is blank"),
            fair("他的特徵工程經驗很紮實。", "繁體: Q2, answered"),
            fair("会不会分布式训练还不知道。", "says it is not known"),
        ),
    ),
    NoteSet(
        "000",
        (),
        "Q2 and Q3 unanswered: what the position asks for, what someone meant to ask",
        (
            fair("这个岗位很需要All-Reduce的经验。", "what the position asks for"),
            fair(
                "We need someone who knows client/server architecture well.", "what the team needs"
            ),
            fair("本来想问All-Reduce，时间不够了。", "meant to ask: not asked"),
            fair("I meant to ask about All-Reduce but ran out of time.", "not asked"),
            claim("我问了All-Reduce，他讲得很清楚。", 2, why="asked, and credited"),
            claim("他比上一个候选人更懂All-Reduce。", 2, why="credits Q2 by comparison"),
            claim("The third question was his strongest.", 3, why="names Q3 in English words"),
            claim("Question two: great answer.", 2, why="names Q2 in English words"),
            fair(
                "沟通不错，All-Reduce是这次的重点。",
                "praise of his manner, then what the interview was about",
            ),
            fair(
                "态度很好，All-Reduce那题我们换了个问法。",
                "praise of his manner, then how Q2 was asked",
            ),
            claim(
                "讲得最清楚的，是All-Reduce的优缺点。", 2, why="the credit goes on to Q2 (`是…`)"
            ),
            claim("整体很好，尤其是All-Reduce。", 2, why="the credit goes on to Q2 (`尤其是`)"),
            claim(
                "Very good overall, especially on All-Reduce.",
                2,
                why="the credit goes on to Q2 (`especially`)",
            ),
            fair(
                "他的server端经验很丰富。",
                "`server`, plainly written, is one plain word of Q3 (Client/Server): no topic",
            ),
            fair(
                "&gt; 他对All-Reduce讲得很清楚\n我不同意，他只是背了概念。",
                "quotes another reviewer's words (as Slack sends a quote), then disagrees",
            ),
        ),
    ),
    # a sixth batch: the credit before the topic, a topic stated without credit
    NoteSet(
        "000",
        (),
        "Q2 and Q3 unanswered (a sixth batch)",
        (
            claim("讲得最清楚的，是All-Reduce的优缺点。", 2, why="credit first, then Q2's topic"),
            claim(
                "他能讲清楚两点：All-Reduce的带宽开销和同步延迟。",
                2,
                why="credits two points of Q2",
            ),
            claim(
                "说到Client/Server架构，他举了两个线上的例子，很有说服力。",
                3,
                why="credits Q3 with examples",
            ),
            claim("Client/Server这块，他的理解比大多数候选人都深。", 3, why="credits Q3"),
            claim(
                "He talked through All-Reduce vs. parameter servers with real nuance.",
                2,
                why="credits Q2",
            ),
            claim("On the client/server question he was excellent.", 3, why="credits Q3"),
            claim("他对分布式TensorFlow服务的理解是我见过最扎实的。", 3, why="credits Q3"),
            claim(
                "倾向通过：All-Reduce、Client/Server都答得很好。",
                2,
                3,
                why="a decision leaning hire; credits Q2 and Q3",
            ),
            fair(
                "同意 <@U02> 的看法，All-Reduce 确实是短板。",
                "agrees that Q2's topic is a weakness",
            ),
            fair("All-Reduce 是这次面试的重点。", "says what the interview was about"),
            fair("Client/Server架构这题的记录好像不完整。", "says the record is incomplete"),
            fair("这份记录里All-Reduce的部分被截断了。", "says the record was cut"),
            fair("All-Reduce 这部分我下次来补充问。", "a plan"),
            fair("All-Reduce 的问题交给 <@U03> 二面。", "a plan for the second round"),
            fair("He never got to the client/server part.", "says it was not reached"),
            fair("Client/server architecture: no signal.", "no signal: credits nothing"),
            fair("All-Reduce？完全没印象他讲过。", "a question, and says no recollection"),
            fair(
                "低级分布式编程讲得好，高级的没问到。",
                "credits Q1 (answered); says Q2 was not asked",
            ),
            fair("数据并行的同步策略讲得透彻，实践经验丰富。", "Q1, answered"),
            fair("面试整体节奏很好，候选人准备充分。", "generic"),
        ),
    ),
    NoteSet(
        "004",
        (),
        "Q5 unanswered (a sixth batch)",
        (
            claim("讲到分布式训练时，他对多机同步的坑如数家珍。", 5, why="credits Q5"),
            claim("Distributed training: strong, clearly done it before.", 5, why="credits Q5"),
            fair("分布式训练是我们团队的刚需。", "what the team needs"),
            fair("Distributed training — didn't come up.", "says it did not come up"),
            fair("分布式训练：无信息。", "no information"),
        ),
    ),
    # a seventh batch: English notes on other questions, each a different glossary
    # term; written after the sixth (two misses kept as they are)
    NoteSet(
        "003",
        (1,),
        "Q1 (前向后向传播) unanswered",
        (
            claim(
                "He explained forward and backward propagation clearly.",
                1,
                why="credits Q1; the check misses it: Q10's answer names 前向传播和反向传播 in passing",
            ),
            claim(
                "Good intuition for backpropagation.",
                1,
                why="credits Q1; missed for the same reason",
            ),
            fair("Backprop wasn't discussed.", "says Q1 was not discussed"),
        ),
    ),
    NoteSet(
        "003",
        (3,),
        "Q3 (矩阵推导的挑战) unanswered",
        (
            claim(
                "He described how he overcame the challenges of matrix derivation.",
                3,
                why="credits Q3",
            ),
            claim("Solid on matrix calculus derivations.", 3, why="credits Q3"),
            fair("Matrix derivation: skipped.", "says Q3 was skipped"),
        ),
    ),
    NoteSet(
        "003",
        (8,),
        "Q8 (嵌入式训练) unanswered",
        (
            claim(
                "His answer on embedded training and memory limits was thoughtful.",
                8,
                why="credits Q8",
            ),
            fair("We should ask about embedded training next time.", "a plan"),
        ),
    ),
    NoteSet(
        "003",
        (10,),
        "Q10 (扩展TensorFlow功能) unanswered",
        (
            claim(
                "He has clearly extended TensorFlow with custom ops before.", 10, why="credits Q10"
            ),
            claim("Great answer on extending TensorFlow's functionality.", 10, why="credits Q10"),
            fair("Extending TensorFlow: not covered.", "says Q10 was not covered"),
        ),
    ),
    NoteSet(
        "002",
        (3,),
        "Q3 (图优化) unanswered",
        (
            claim(
                "He explained why graph optimization matters in neural network design.",
                3,
                why="credits Q3",
            ),
            fair("Graph optimization was left blank.", "says Q3 is blank"),
        ),
    ),
    NoteSet(
        "002",
        (6,),
        "Q6 (损失函数, 优化算法) unanswered",
        (
            claim(
                "He knows how to choose between cross-entropy and other loss functions.",
                6,
                why="credits Q6",
            ),
            fair("Loss functions — ask in round two.", "a plan"),
        ),
    ),
    NoteSet(
        "004",
        (1,),
        "Q1 (构建模型时的考虑因素) and Q5 unanswered",
        (
            claim(
                "He laid out the factors he considers when building a model very clearly.",
                1,
                why="credits Q1",
            ),
            fair("Model building considerations: blank.", "says Q1 is blank"),
        ),
    ),
    # an eighth batch, written blind by a second helper before it read store/claims/:
    # Slack threads in 简体, 繁體, English and both at once, with mentions, emoji and
    # typos; claims by question number, ordinal, range, topic word, abbreviation and
    # English synonym, hedged credit, and the fair notes beside them. Before any change
    # for it the check scored precision 100 % (50 of 50), recall 78.1 % (50 of 64) here
    NoteSet(
        "000",
        (),
        "Q2 and Q3 unanswered (an eighth batch, blind)",
        (
            claim("通过 👍 ring all-reduce 那块讲得很扎实", 2, why="credits Q2's All-Reduce"),
            claim(
                "他对参数同步的几种方式（replicated vs all-reduce）理解到位，优缺点也说得出来。",
                2,
                why="credits Q2's two models and their 优缺点",
            ),
            claim(
                "同意 <@U03ABCDE> 的看法，第2题答得很有深度。",
                2,
                why="names Q2, which is empty, after a mention",
            ),
            claim(
                "Q3 answer was the strongest part of the interview imo",
                3,
                why="names Q3, which is empty",
            ),
            claim(
                "对 C/S 架构在生产里的落地讲得挺清楚的",
                3,
                why="C/S is Q3's Client/Server architecture, credited",
            ),
            claim(
                "He clearly understands how a client talks to a distributed TensorFlow server "
                "- good answer.",
                3,
                why="credits Q3 (分布式 TensorFlow 服务, Client/Server) in English",
            ),
            claim("高阶的分布式编程模型他也能讲出门道。", 2, why="高阶 is 高级: credits Q2"),
            claim(
                "He nailed the pros/cons of all-reduce vs. replicated training.",
                2,
                why="credits Q2's trade-offs in English",
            ),
            claim("第三个问题回答得很好，思路清晰。", 3, why="an ordinal naming Q3, empty"),
            claim("對 All-Reduce 的優缺點分析得很到位，推薦錄用。", 2, why="繁體: credits Q2"),
            claim(
                "分布式TF服务这块有实战经验，部署过好几套",
                3,
                why="TF is TensorFlow: credits Q3's 分布式 TensorFlow 服务",
            ),
            claim("Q2/Q3 both solid, hire.", 2, 3, why="names Q2 and Q3, both empty"),
            claim(
                "讲 allreduce 的时候举了带宽瓶颈的例子，很有说服力",
                2,
                why="allreduce written without the hyphen: credits Q2",
            ),
            claim(
                "他对 client-server 模式的理解比我预期的深。",
                3,
                why="client-server is Q3's Client/Server: credited",
            ),
            claim(
                "Strong on the high-level distributed programming models question.",
                2,
                why="the English of Q2's 高级分布式编程模型",
            ),
            claim("录用吧，问题二和问题三都回答得很全面", 2, 3, why="a decision naming Q2 and Q3"),
            claim(
                "说到 Client/Server 架构，他给了很多实际项目中的例子，加分。",
                3,
                why="credits Q3's Client/Server in real projects",
            ),
            claim(
                "team 里缺懂 all-reduce 的人，他正好讲得很透 :100:",
                2,
                why="credits Q2 after a need of the team",
            ),
            claim(
                "感觉 All-Reduce 他是真懂的。",
                2,
                why="感觉 softens the credit but it still credits Q2",
            ),
            claim(
                "I think he understands replicated training well.",
                2,
                why="a softened credit on Q2's Replicated training",
            ),
            claim(
                "<@U0456FGH> +1，Q3 答得挺好",
                3,
                why="agrees with a mention and names Q3",
            ),
            claim(
                "虽然 Q2 没答，但 Client/Server 讲得很好。",
                3,
                why="the negation is Q2's; Q3's topic is credited",
            ),
            claim(
                "问题2到问题4都答得很好。",
                2,
                3,
                why="the range 2 to 4 takes in Q2 and Q3, both empty",
            ),
            claim(
                "Cleint/Server 架构讲得不错",
                3,
                why="a typo of Client/Server: credits Q3",
            ),
            claim(
                "He seemed very comfortable with All-Reduce and its trade-offs.",
                2,
                why="a softened credit on Q2",
            ),
            fair("All-Reduce 那题没答上来，有点可惜。", "says Q2 went unanswered"),
            fair("下次面试可以让他讲讲 Client/Server 架构的取舍", "a suggestion for next time"),
            fair("他到底懂不懂 all-reduce？我没看出来", "a question and a doubt"),
            fair("数据并行和图间复制讲得很清楚，低级分布式编程这块没问题。", "Q1, answered"),
            fair("图像分类那个挑战讲得挺细，剪枝和量化都用上了", "Q4, answered"),
            fair("应用场景那题回答比较泛，推荐系统、NLP 都是套话。", "criticises Q5, answered"),
            fair("Q2 和 Q3 都是空白，建议加一轮技术面。", "says Q2 and Q3 are blank"),
            fair(
                "He says he's an expert in All-Reduce but I didn't hear any evidence.",
                "what the candidate says of himself, doubted",
            ),
            fair("整体偏理论，实际落地经验一般。", "generic"),
            fair("<@U02XYZAB> 你那边对 Client/Server 架构那题怎么看？", "asks a colleague"),
            fair(
                "Would be good to hear his take on replicated training next round.",
                "a suggestion for next round",
            ),
            fair(
                "不通过，高级分布式编程模型完全没有讲，Client/Server 也是空白",
                "a decision whose reasons say Q2 and Q3 are empty",
            ),
            fair(
                "I'd want someone to dig into his TF serving experience before we decide.",
                "a plan",
            ),
            fair(
                "training 速度优化那段说得还行", "Q4's training speed, answered; a plain Latin word"
            ),
            fair("如果能补上 all-reduce 的部分就更完整了", "a wish"),
            fair("他说自己熟悉 Client/Server 架构，有待验证。", "what he says of himself"),
            fair("worker 之间的数据一致性讲得不错", "Q1's Workers, answered"),
            fair("All-Reduce 的理解一般般，没说到点子上。", "criticism"),
            fair("建议通过，但第二题需要二面再确认。", "a decision and a plan for Q2"),
            fair("hmm not convinced by the client/server bits tbh", "a doubt"),
            fair(
                "Solid hire. Data parallelism and between-graph replication explained crisply.",
                "Q1, answered",
            ),
            fair(
                "分布式TensorFlow的应用场景讲得很全面，图像、NLP、推荐都覆盖了。",
                "Q5's applications, answered; 分布式 TensorFlow is Q5's words too",
            ),
            fair("TensorFlow 用得很熟 🙂", "generic: every question says TensorFlow"),
            fair(
                "下次问：Replicated training 和 All-Reduce 你会怎么选？",
                "a question to ask next time",
            ),
        ),
    ),
    NoteSet(
        "004",
        (),
        "Q5 (利用 TensorFlow 进行分布式训练) unanswered (an eighth batch, blind)",
        (
            claim(
                "分布式训练这块他很有经验，讲了 MirroredStrategy 怎么用",
                5,
                why="credits Q5's 分布式训练",
            ),
            claim(
                "He walked us through a multi-worker training setup in TF, pretty convincing.",
                5,
                why="multi-worker training is distributed training: credits Q5",
            ),
            claim("多机多卡训练讲得很清楚", 5, why="多机多卡 is distributed training: Q5"),
            claim("第五题回答得很好", 5, why="an ordinal naming Q5, empty"),
            claim("Q5 👍 参数服务器那套他很熟", 5, why="names Q5, empty"),
            claim("TF 分布式训练的经验是他最大的亮点。", 5, why="credits Q5"),
            claim("對分散式訓練很熟悉，推薦。", 5, why="繁體 (Taiwan's 分散式): credits Q5"),
            claim(
                "Distributed training with TensorFlow: strong answer, knows parameter servers "
                "and all-reduce.",
                5,
                why="credits Q5 in English",
            ),
            claim("他有分布式经验，能直接上手。", 5, why="分布式 is Q5's alone here: credited"),
            claim(
                "He's done data-parallel training across multiple GPUs with TensorFlow.",
                5,
                why="data-parallel training across GPUs is distributed training: Q5",
            ),
            claim(
                "那道分布式的题也答得不错，整体可以过",
                5,
                why="the distributed question is Q5, credited",
            ),
            fair("分布式训练那题直接跳过了", "says Q5 was skipped"),
            fair("EmbeddingColumn 解释得不错，离散特征处理有经验", "Q6, answered"),
            fair("LazyBuilder 和 StateManager 的理解都还可以。", "Q3 and Q4, answered"),
            fair("特征工程那个例子准确率从60%提到80%，数据有说服力", "Q2, answered"),
            fair("mixed precision 和 XLA 都用过，训练效率意识不错", "Q1, answered"),
            fair("建议下一轮重点问分布式训练，这题他没答", "a plan, and says Q5 is empty"),
            fair("不确定他有没有真正做过分布式训练。", "a doubt"),
            fair("Would like to know how he'd scale training across machines.", "a wish"),
            fair("他简历里写了分布式训练经验，但面试里没体现", "his CV, not the interview"),
        ),
    ),
    NoteSet(
        "002",
        (7,),
        "Q4 (使用 TensorFlow 设计和实现神经网络模型) and Q7 (模型训练与优化的成功案例) "
        "unanswered (an eighth batch, blind)",
        (
            claim("成功案例那题讲得很好，图像识别模型做得很扎实。", 7, why="credits Q7"),
            claim("第7题的成功案例很有说服力", 7, why="names Q7, removed"),
            claim("他讲的那个 TensorFlow 成功案例挺打动我的", 7, why="Q7's 成功案例, credited"),
            claim("Q7 was great, a real success story with numbers.", 7, why="names Q7"),
            claim("第4题回答得挺全面", 4, why="names Q4, empty"),
            fair("损失函数选交叉熵、用早停防过拟合，思路很规范", "Q6, answered"),
            fair("图优化那题讲得很透，稀疏矩阵和近似算法都提到了", "Q3, answered"),
            fair("成功案例那题没回答，有点遗憾", "says Q7 went unanswered"),
            fair("下一轮让他补讲一个成功案例吧", "a plan"),
            fair("分布式环境下图操作讲得还行，数据并行和模型并行都有", "Q2, answered"),
            fair("第4题空着，其他题答得都不错。", "says Q4 is empty; the rest answered"),
        ),
    ),
    NoteSet(
        "003",
        (6, 10),
        "Q6 (分布式训练项目中的角色和贡献) and Q10 (扩展 TensorFlow 功能) unanswered "
        "(an eighth batch, blind)",
        (
            claim(
                "自定义算子那块讲得很有料，GPU 卷积算子优化了30%",
                10,
                why="custom operators are how TensorFlow is extended: credits Q10",
            ),
            claim("扩展 TensorFlow 的经历很有创意。", 10, why="credits Q10"),
            claim("He has real experience writing custom TF ops.", 10, why="credits Q10"),
            claim("在分布式训练项目里他是核心成员，贡献很大", 6, why="Q6's role and contribution"),
            claim("第六题讲自己在项目里的角色，讲得很清楚", 6, why="an ordinal naming Q6"),
            claim("Q10 was the highlight for me 🔥", 10, why="names Q10, removed"),
            claim("問題6回答得很完整，角色和貢獻都講清楚了", 6, why="繁體: names Q6"),
            claim(
                "He described his role in the distributed training project convincingly.",
                6,
                why="credits Q6 in English",
            ),
            claim("最后一题答得很有创意", 10, why="the last question is Q10, removed"),
            fair("弹性训练那题比喻太多，干货少", "criticises Q7, answered"),
            fair("Kubernetes 单机原理那题讲了 Prometheus 和 Grafana，挺实在", "Q5, answered"),
            fair("矩阵推导那段，先加后乘的说法是错的吧？", "a question on Q3, answered"),
            fair("Q6 和 Q10 都没答，需要补面", "says Q6 and Q10 are empty"),
            fair("推荐系统趋势讲到了图神经网络和联邦学习，视野不错", "Q9, answered"),
            fair("可以让他下次讲讲怎么扩展 TensorFlow", "a suggestion"),
            fair("嵌入式训练的内存优化思路不错", "Q8, answered"),
            fair("Not sure what his actual role in the distributed project was.", "a doubt"),
        ),
    ),
    NoteSet(
        "004",
        (4,),
        "Q4 (StateManager) and Q5 unanswered (an eighth batch, blind)",
        (
            claim("StateManager 讲得很清楚，状态管理这块没问题", 4, why="credits Q4"),
            claim(
                "He knows how TF's StateManager keeps training state consistent.",
                4,
                why="credits Q4 in English",
            ),
            claim("第四题和第五题都答得不错", 4, 5, why="ordinals naming Q4 and Q5, both empty"),
            claim("LazyBuilder 讲得好，StateManager 也熟", 4, why="Q3 answered, Q4 credited"),
            fair("StateManager 没答上来", "says Q4 went unanswered"),
            fair("LazyBuilder 理解到位", "Q3, answered"),
            fair("下轮问问 StateManager 的用法", "a plan"),
        ),
    ),
    NoteSet(
        "003",
        (2,),
        "Q2 (最喜欢的深度学习框架, 理由) unanswered (an eighth batch, blind)",
        (
            claim("问他最喜欢哪个框架，理由讲得很充分", 2, why="credits Q2"),
            claim("对深度学习框架选型的理由说得很清楚。", 2, why="选型 is Q2's choice: credited"),
            claim("Q2: good reasoning for picking TensorFlow.", 2, why="names Q2"),
            fair("对 TensorFlow 很熟，扩展功能那题做了自定义算子", "Q10, answered"),
            fair("最喜欢哪个框架那题他没说", "says Q2 was not answered"),
        ),
    ),
    NoteSet(
        "003",
        (3, 7),
        "Q3 (矩阵推导的挑战) and Q7 (弹性训练技术) unanswered (an eighth batch, blind)",
        (
            claim("弹性训练讲得好，动态扩缩节点的思路清晰", 7, why="credits Q7"),
            claim("Elastic training answer was solid.", 7, why="credits Q7 in English"),
            claim("矩阵推导的学习挑战讲得很真实", 3, why="credits Q3"),
            fair("弹性训练没回答", "says Q7 was not answered"),
            fair("前向后向传播讲得很形象", "Q1, answered"),
            fair("建议下一面问问弹性训练的实际落地", "a plan"),
        ),
    ),
    # the eighth batch's second part, also written before store/claims/ was read:
    # fair notes that share a question's words (a negation that praises, a topic named
    # to say it was missing, what the team does) and claims said by an idiom or a mark.
    # Before any change: precision 57.1 % (4 of 7), recall 30.8 % (4 of 13); the whole
    # batch, 145 notes: precision 94.7 % (54 of 57), recall 70.1 % (54 of 77)
    NoteSet(
        "000",
        (),
        "Q2 and Q3 unanswered (an eighth batch, blind, second part)",
        (
            claim("Client/Server 这题没话说，满分", 3, why="没话说 praises Q3: no negation"),
            claim(
                "All-Reduce 讲得不错，不过 Client/Server 没答",
                2,
                why="credits Q2; the negation is Q3's",
            ),
            claim(
                "Replicated training 和 All-Reduce 的对比一点都不含糊",
                2,
                why="一点都不含糊 praises Q2's comparison",
            ),
            claim("All-Reduce 的优缺点他说得没毛病", 2, why="没毛病 praises Q2"),
            claim("没想到他对 Client/Server 架构这么熟", 3, why="没想到 is surprise: credits Q3"),
            claim(
                "Honestly his all-reduce explanation was better than mine lol",
                2,
                why="credits Q2",
            ),
            claim("Client/Server架构：✅", 3, why="a check mark credits Q3"),
            claim("All-Reduce ✔️ Client/Server ✔️", 2, 3, why="check marks credit Q2 and Q3"),
            claim("分布式 TF serving 讲得不错", 3, why="TF serving is Q3's 分布式 TensorFlow 服务"),
            fair("Client/Server 那题他说了句“没怎么接触过”，就过了", "says Q3 got no answer"),
            fair("All-Reduce 都讲不清楚还想要高级岗？", "rhetorical criticism"),
            fair("讲得很好的是数据并行，All-Reduce 则完全没提", "credits Q1; Q2 not mentioned"),
            fair("Great on data parallelism; nothing on all-reduce.", "credits Q1; Q2 empty"),
            fair("我们组主要做 Client/Server 架构，他的背景匹配度一般", "what the team does"),
            fair("需要确认他是否真的理解 Replicated training", "a doubt and a plan"),
            fair("别被他的自信骗了，Client/Server 其实一句没讲", "says Q3 was not answered"),
            fair("He'd be great if he knew all-reduce well.", "a conditional wish"),
            fair("不清楚他对 C/S 架构的理解，待定", "says the reviewer cannot tell"),
            fair(
                "TensorFlow 分布式训练的挑战那题讲得好",
                "Q4's challenge, answered; shares 分布式 TensorFlow with Q3",
            ),
            fair("高级岗位的要求他大概满足", "高级 of the position, not of Q2's models"),
            fair("All-Reduce? 没听他提过。", "says Q2 never came up"),
            fair("Could not assess client/server knowledge.", "says Q3 could not be assessed"),
        ),
    ),
    NoteSet(
        "004",
        (),
        "Q5 unanswered (an eighth batch, blind, second part)",
        (
            claim("分布式训练的问题回答得没有问题", 5, why="没有问题 praises Q5"),
            claim("Multi-GPU training: knows his stuff.", 5, why="multi-GPU training is Q5"),
            fair("分布式训练我们后面可以安排专人再面", "a plan"),
            fair("StateManager 的作用讲对了，分布式部分则是空的", "Q4 answered; Q5 empty"),
            fair("他没法解释怎么用 TensorFlow 做分布式训练", "says he could not answer Q5"),
        ),
    ),
    NoteSet(
        "003",
        (6, 10),
        "Q6 and Q10 unanswered (an eighth batch, blind, second part)",
        (
            claim("The custom-op story was impressive.", 10, why="custom ops extend TensorFlow"),
            fair("扩展 TF 功能这块不是他的强项", "criticises Q10"),
            fair("他在分布式训练项目中的贡献不明确", "says Q6 is unclear"),
        ),
    ),
    # a ninth batch, written by the same helper after the eighth's fixes, to probe them
    # (not blind: the check was known by then): criticism said as a manner, plans,
    # passing over, and the new phrasings used in fair notes; claims in yet other words
    NoteSet(
        "000",
        (),
        "Q2 and Q3 unanswered (a ninth batch, probing the eighth's fixes)",
        (
            claim("高级分布式编程那题 💯", 2, why="a mark credits Q2"),
            claim("C/S 架构那题讲得相当到位", 3, why="C/S is Q3's Client/Server"),
            claim("Client-server architecture: nailed it.", 3, why="credits Q3 in English"),
            claim(
                "对 all reduce 和 replicated training 的理解很清楚",
                2,
                why="Q2's two models, All-Reduce spaced",
            ),
            claim("分散式 TensorFlow 服務部署講得很清楚", 3, why="繁體: credits Q3"),
            claim(
                "The last question? Fine. The client/server one was excellent though.",
                3,
                why="the last question (Q5) is answered; Q3 credited",
            ),
            fair("All-Reduce 讲得太理论了", "criticism said as a manner"),
            fair("Client/Server 讲得很简单，没有深入", "criticism said as a manner"),
            fair("All-Reduce part done, moving on to Client/Server next time", "a plan"),
            fair("他主导的项目不涉及 All-Reduce", "says Q2's topic was not in his work"),
            fair("最后一题是应用场景，答得一般", "Q5, answered, and criticised"),
            fair("高级的分布式模型他没碰过", "says he never touched Q2's topic"),
            fair("Asked about all-reduce; he changed the subject.", "says Q2 got no answer"),
            fair("C/S 架构的题目他放弃了", "says Q3 was given up"),
            fair("讲得很好，可惜 Client/Server 那题是空的", "generic praise; Q3 empty"),
            fair("👍 for effort, but All-Reduce was a miss", "a mark for effort; Q2 missed"),
            fair("他做过多机部署，但分布式编程模型的高级部分没讲", "says Q2 was not said"),
        ),
    ),
    NoteSet(
        "004",
        (),
        "Q5 unanswered (a ninth batch, probing the eighth's fixes)",
        (
            claim("Q5 done well 👍", 5, why="names Q5, empty"),
            claim("他有多机训练的实战经验", 5, why="多机训练 is distributed training: Q5"),
            fair("多机训练这块没问过", "says it was not asked"),
            fair("He's done nothing on multi-GPU training.", "says nothing was said"),
            fair("讲得很简单，分布式训练这块基本没说", "says Q5 was hardly said"),
        ),
    ),
    NoteSet(
        "003",
        (6, 10),
        "Q6 and Q10 unanswered (a ninth batch, probing the eighth's fixes)",
        (
            claim("最后一个问题他讲了自定义算子，很有想法", 10, why="the last question is Q10"),
            claim("在分布式训练项目中他是主力", 6, why="his role in the project: Q6"),
            fair("他在项目中的角色讲得很模糊", "says his role was vague"),
        ),
    ),
    # a tenth batch, written by the same helper while probing the check after reading it
    # (not blind): fair notes that name an open question's topic, and claims in idioms,
    # numbers a 题 closes, and English verbs of doing
    NoteSet(
        "000",
        (),
        "Q2 and Q3 unanswered (a tenth batch, probing)",
        (
            claim("C/S 这块是他的舒适区", 3, why="舒适区: credits Q3"),
            claim("Client/Server 这题拿捏了", 3, why="拿捏: credits Q3"),
            claim("Client/Server 部分可圈可点", 3, why="可圈可点: credits Q3"),
            claim("二、三题都不错", 2, 3, why="names Q2 and Q3"),
            claim("第2、3题答得好", 2, 3, why="names Q2 and Q3"),
            claim("Q2 & Q3 were fine", 2, 3, why="names Q2 and Q3"),
            claim("亮点：All-Reduce", 2, why="the highlight is Q2's topic"),
            claim("Impressive grasp of ring all-reduce.", 2, why="credits Q2"),
            claim("Knew replicated training inside out.", 2, why="credits Q2"),
            claim("All-Reduce 他门儿清", 2, why="门儿清: credits Q2"),
            claim("All-Reduce 讲得头头是道", 2, why="credits Q2"),
            claim("All-Reduce 和参数服务器的区别讲明白了", 2, why="credits Q2"),
            claim("對 C/S 架構的理解很深", 3, why="繁體, C/S: credits Q3"),
            claim("All-Reduce，虽然没答全，但讲得很到位", 2, why="a concession between"),
            claim("面试官们一致认为他 Client/Server 讲得很好", 3, why="the panel credits Q3"),
            claim("All-Reduce 部分：满分", 2, why="满分 credits Q2"),
            claim(
                "Although he skipped Q3, his all-reduce answer was strong.",
                2,
                why="Q3 skipped; Q2 credited",
            ),
            claim("<@U123ABC> All-Reduce 他讲得很透，你怎么看？", 2, why="credits Q2, then asks"),
            claim("他对客户端/服务器架构理解很深", 3, why="Client/Server said in Chinese"),
            claim("CS架构讲得很好", 3, why="CS架构 is Client/Server"),
            fair("他的 CS 背景很扎实", "CS here is computer science"),
            fair("All-reduce knowledge: TBD", "the heading's value is to be decided"),
            fair("We never got to all-reduce.", "says Q2 never came up"),
            fair("Ran out of time before Q3.", "says Q3 was not reached"),
            fair("Q2/Q3 not asked due to time", "says they were not asked"),
            fair("He mentioned all-reduce once, no detail.", "a bare mention"),
            fair("No signal on all-reduce.", "no information"),
            fair(
                "All-Reduce — didn't get to it, otherwise a strong candidate.",
                "Q2 not reached; the praise is generic",
            ),
            fair("All-Reduce 这块我们组很熟，可以带他", "what the team knows"),
            fair("我解释了一下 All-Reduce 的原理，他听得很认真", "what the interviewer did"),
            fair(
                "面试官（我）对 Client/Server 架构讲了很多，他没怎么接话", "the interviewer spoke"
            ),
            fair("I explained all-reduce to him; he followed along.", "the interviewer explained"),
            fair("All-Reduce 只说了个名字", "no more than a name"),
            fair("对 All-Reduce 的理解仅限于名字", "no more than a name"),
            fair("Client/Server 架构的经验他完全没有", "none at all"),
            fair("Expected a better answer on client/server.", "criticism"),
            fair("Good question to ask: all-reduce vs replicated training.", "a question to ask"),
            fair("All-Reduce 这部分我给 2 分（满分 5 分）", "a low score on a scale"),
            fair("他把 Client/Server 和 P2P 搞混了", "criticism"),
            fair("His all-reduce explanation was wrong.", "criticism"),
            fair("He admitted he has never used all-reduce.", "says he never used it"),
            fair("All-Reduce 的优缺点是我们这个岗位最看重的", "what the role values"),
            fair("他很强，但是 All-Reduce 没来得及问", "generic praise; Q2 not asked"),
            fair("The client/server question is a good one for round two.", "a plan"),
            fair("He knows OF all-reduce but couldn't explain it.", "knows only of it"),
            fair("All-Reduce 这题答得一塌糊涂", "criticism"),
            fair("All-Reduce 讲得好的话可以给 strong hire", "a condition (的话)"),
        ),
    ),
    NoteSet(
        "004",
        (),
        "Q5 unanswered (a tenth batch, probing)",
        (
            claim("分布式训练这块我觉得没什么问题", 5, why="没什么问题 credits Q5"),
            claim("分布式训练问题不大", 5, why="问题不大 credits Q5"),
            claim("分布式训练：熟练", 5, why="the heading's value credits Q5"),
            claim("He knows how to run distributed training in TF.", 5, why="credits Q5"),
            fair("分布式训练是加分项，可惜没聊到", "what the role values; not discussed"),
            fair("Distributed training experience is a must for this role.", "what the role needs"),
            fair("分布式训练的经验几乎为零", "none at all"),
            fair("分布式训练的问题不大清楚", "not clear"),
            fair("他对分布式训练很感兴趣", "an interest, not an answer"),
            fair("He is keen to learn distributed training.", "a wish to learn"),
            fair("分布式训练这块交给二面吧", "a plan"),
            fair("Distributed training: no data.", "no information"),
        ),
    ),
    NoteSet(
        "003",
        (6, 10),
        "Q6 and Q10 unanswered (a tenth batch, probing)",
        (
            claim("他在分布式训练项目中担任核心角色", 6, why="his role: credits Q6"),
            claim(
                "He described his role and contribution in the distributed training project "
                "clearly.",
                6,
                why="credits Q6",
            ),
            claim("He extended TensorFlow with custom operators, nice work.", 10, why="Q10"),
        ),
    ),
    NoteSet(
        "004",
        (6,),
        "Q5 and Q6 (EmbeddingColumn) unanswered (a tenth batch, probing)",
        (
            claim(
                "Good explanation of embedding columns for sparse features.",
                6,
                why="EmbeddingColumn written apart",
            ),
            fair("Embedding columns never came up.", "says Q6 never came up"),
        ),
    ),
    NoteSet(
        "003",
        (8,),
        "Q8 (嵌入式训练) unanswered (a tenth batch, probing)",
        (
            claim(
                "He solved a tough embedded training problem on mobile devices.",
                8,
                why="credits Q8 by what he did",
            ),
            fair("He never solved the embedded training problem.", "a denial"),
        ),
    ),
    NoteSet(
        "003",
        (5,),
        "Q5 (Kubernetes 单机原理) unanswered (a tenth batch, probing)",
        (
            claim(
                "Kubernetes 这块他很熟，单机和分布式模式的区别讲清楚了",
                5,
                why="a Chinese note starting with Q5's name",
            ),
            claim("K8s 单机原理那题讲得很扎实", 5, why="K8s is Kubernetes"),
            fair("Kubernetes 我们下一轮再问", "a plan"),
        ),
    ),
    NoteSet(
        "002",
        (6,),
        "Q4 and Q6 (损失函数和优化算法) unanswered (a tenth batch, probing)",
        (
            claim("损失函数的选择很有章法", 6, why="credits Q6"),
            fair("损失函数这块下次问", "a plan"),
        ),
    ),
]
