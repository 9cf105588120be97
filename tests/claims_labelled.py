"""A labelled set for the unsupported-claims check (issue 37): the seeds' summary and
verdict sentences, the same seeds with more answers removed, and reviewers' notes. Every
sentence is labelled: the unanswered questions it credits the candidate on (a claim), or
none, each with the reason. tests/test_claims_labelled.py asserts the check's precision
and recall over it; bench/claims.py prints them beside a naive baseline.

A label is a (sentence, question) pair: precision counts the flagged pairs that are
labelled, recall the labelled pairs that are flagged."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from claims_notes import NOTE_SETS, NoteSet

from store.claims.check import NoteText, unsupported
from store.claims.sentences import sentences
from store.models import Transcript
from store.transcripts.parser import parse_transcript

SEEDS = Path(__file__).resolve().parent.parent / "seeds"

# the reason every sentence not labelled otherwise carries
NO_TOPIC = "names no unanswered question and shares no specific word with one"


@dataclass(frozen=True)
class Case:
    seed: str  # the seed's id prefix
    emptied: tuple[int, ...] = ()  # answers removed on top of the seed's own
    # the first words of a sentence -> (the unanswered questions it credits, why)
    claims: dict[str, tuple[tuple[int, ...], str]] = field(default_factory=dict)
    # the first words of a sentence -> why it is no claim (where the reason is not NO_TOPIC)
    not_claims: dict[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()  # reviewers' notes, read with the summary and verdict


CASES: list[Case] = [
    Case(
        "000",
        claims={
            "他还谈到了高级分布式编程模型": (
                (2,),
                "credits Q2 (高级分布式编程模型, 优缺点), empty",
            ),
            "此外，他对分布式TensorFlow服务和Client/Server": (
                (3,),
                "credits Q3 (Client/Server), empty",
            ),
            "在面对高级分布式编程模型时": ((2,), "credits a view on Q2's 优缺点: Q2 is empty"),
            "他还对分布式TensorFlow服务以及在Client/Server": ((3,), "credits Q3, empty"),
            "他对All-Reduce的优缺点讲得很清楚": ((2,), "a note crediting Q2's topic"),
            "Q3答得不错": ((3,), "a note naming Q3, which is empty"),
            "He explained the trade-offs of All-Reduce": ((2,), "an English note on Q2's topic"),
        },
        not_claims={
            "问题2没有回答": "says Q2 was not answered: a negation, no claim",
            "总体来说，面试表现优秀": "generic: names no question",
            "他对低级分布式编程模型理解很深": "Q1's topic, answered",
            "面试者在回答问题时，表现出了对低级分布式编程模型": "Q1's topic, answered",
            "在谈到实际项目中遇到的挑战时": "Q4's topic, answered",
            "在解决问题方面": "Q4's topic, answered",
            "He did not answer Q2": "a negation in English",
        },
        notes=(
            "问题2没有回答，建议二面再问。",
            "他对All-Reduce的优缺点讲得很清楚。",
            "总体来说，面试表现优秀。",
            "Q3答得不错。",
            "他对低级分布式编程模型理解很深。",
            "He explained the trade-offs of All-Reduce clearly. He did not answer Q2 though.",
        ),
    ),
    Case(
        "000",
        emptied=(4,),
        claims={
            "他还谈到了高级分布式编程模型": ((2,), "credits Q2, empty"),
            "此外，他对分布式TensorFlow服务和Client/Server": ((3,), "credits Q3, empty"),
            "在面对高级分布式编程模型时": ((2,), "credits Q2, empty"),
            "他还对分布式TensorFlow服务以及在Client/Server": ((3,), "credits Q3, empty"),
            "在谈到实际项目中遇到的挑战时": ((4,), "credits Q4 (挑战, 解决), removed"),
            "在解决问题方面": ((4,), "credits Q4's challenge and its solution, removed"),
        },
    ),
    Case(
        "002",
        not_claims={
            "这位被面试者在神经网络模型设计和实现方面": (
                "Q4 (设计和实现神经网络模型) is empty, but Q1, Q3 and Q7's answers say it"
            ),
        },
    ),
    Case(
        "002",
        emptied=(6,),
        claims={
            "他还分享了在分布式环境下的图操作问题": (
                (6,),
                "credits Q6 (损失函数, 优化算法), removed",
            ),
        },
    ),
    Case(
        "002",
        emptied=(3,),
        claims={
            "他深入阐述了使用数据流图构建神经网络模型": ((3,), "credits Q3 (图优化), removed"),
        },
    ),
    Case(
        "002",
        emptied=(2,),
        claims={
            "他还分享了在分布式环境下的图操作问题": ((2,), "credits Q2 (图操作), removed"),
        },
    ),
    Case(
        "003",
        not_claims={"本文分享了": "describes the interview's questions, credits no one"},
    ),
    Case(
        "003",
        emptied=(4,),
        claims={"问题4中，面试者对Model/Layer抽象": ((4,), "names Q4, removed")},
        not_claims={"本文分享了": "describes the interview's questions, credits no one"},
    ),
    Case(
        "003",
        emptied=(2,),
        claims={"问题2中，面试者对TensorFlow的喜好": ((2,), "names Q2, removed")},
        not_claims={"本文分享了": "describes the interview's questions, credits no one"},
    ),
    Case(
        "003",
        emptied=(7, 10),
        claims={
            "问题5至问题10的回答均显示出": ((7, 10), "names 5 to 10 and Q10: 7 and 10 removed")
        },
        not_claims={"本文分享了": "describes the interview's questions, credits no one"},
    ),
    Case(
        "003",
        emptied=(8,),
        claims={"问题5至问题10的回答均显示出": ((8,), "the range 5 to 10 takes in Q8, removed")},
        not_claims={"本文分享了": "describes the interview's questions, credits no one"},
        notes=("问题8没有回答，其余都答得很好。",),
    ),
    Case(
        "004",
        claims={
            "此外，他还分享了自己如何利用 TensorFlow 进行分布式训练": (
                (5,),
                "credits Q5 (分布式训练), empty",
            ),
        },
        not_claims={
            "他在回答问题时展现了丰富的实践经验": "generic: common words only",
            "这位面试者是一位有着三年经验": "generic: common words only",
        },
    ),
    Case(
        "004",
        emptied=(3,),
        claims={
            "此外，他还分享了自己如何利用 TensorFlow 进行分布式训练": ((5,), "credits Q5, empty"),
            "他还详细介绍了自己在过去项目中使用的 TensorFlow 特征工程技术和 LazyBuilder": (
                (3,),
                "credits Q3 (LazyBuilder), removed",
            ),
            "特别是他对于 TensorFlow LazyBuilder 和 StateManager": (
                (3,),
                "credits Q3 (LazyBuilder), removed",
            ),
        },
    ),
    Case(
        "004",
        emptied=(6,),
        claims={
            "此外，他还分享了自己如何利用 TensorFlow 进行分布式训练": (
                (5, 6),
                "credits Q5 (分布式训练) and Q6 (EmbeddingColumn): both empty",
            ),
            "此外，他还对 TensorFlow EmbeddingColumn": ((6,), "credits Q6, removed"),
        },
    ),
]


@dataclass(frozen=True)
class Label:
    source: str
    text: str
    questions: tuple[int, ...]
    reason: str


def transcript(case: Case | NoteSet) -> Transcript:
    """The seed with `case.emptied` answers removed."""
    path = next(SEEDS.glob(f"{case.seed}_*.txt"))
    tr = parse_transcript(path.read_bytes(), path.name)
    questions = [
        q.model_copy(update={"answer": "", "answered": False, "unanswered_reason": "empty"})
        if q.number in case.emptied
        else q
        for q in tr.questions
    ]
    return tr.model_copy(update={"questions": questions})


def note_texts(case: Case) -> list[NoteText]:
    return [
        NoteText(by="U0REVIEW", ts=f"17000000{i:02d}.000100", text=n)
        for i, n in enumerate(case.notes)
    ]


def labels(case: Case) -> Iterator[Label]:
    """Every sentence of the case, labelled."""
    tr = transcript(case)
    texts = [("summary", tr.summary), ("verdict", tr.verdict or "")]
    texts += [("note", n) for n in case.notes]
    for source, text in texts:
        for s in sentences(text):
            claim = next((v for k, v in case.claims.items() if s.startswith(k)), None)
            if claim is not None:
                yield Label(source, s, claim[0], claim[1])
                continue
            why = next((v for k, v in case.not_claims.items() if s.startswith(k)), NO_TOPIC)
            yield Label(source, s, (), why)


Finder = Callable[[Transcript, Sequence[NoteText]], list[tuple[str, list[int]]]]


def check(tr: Transcript, notes: Sequence[NoteText]) -> list[tuple[str, list[int]]]:
    """The check under test, as (sentence, questions) pairs."""
    return [(c.text, c.questions) for c in unsupported(tr, (), notes)]


@dataclass
class Score:
    flagged: int = 0
    right: int = 0
    labelled: int = 0
    wrong: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.right / self.flagged if self.flagged else 1.0

    @property
    def recall(self) -> float:
        return self.right / self.labelled if self.labelled else 1.0


def evaluate(find: Finder = check, sources: frozenset[str] | None = None) -> Score:
    """`find`'s flags against the labels, (sentence, question) pair by pair; `sources`:
    only the sentences of those (summary, verdict, note), None: every sentence."""
    score = Score()
    for case in CASES:
        kept = [lab for lab in labels(case) if sources is None or lab.source in sources]
        texts = {lab.text for lab in kept}
        want = {(lab.text, n) for lab in kept for n in lab.questions}
        found = find(transcript(case), note_texts(case))
        got = {(s, n) for s, ns in found for n in ns if s in texts}
        score.labelled += len(want)
        score.flagged += len(got)
        score.right += len(want & got)
        score.wrong += [f"{case.seed}-{case.emptied} Q{n}: {s}" for s, n in sorted(got - want)]
        score.missed += [f"{case.seed}-{case.emptied} Q{n}: {s}" for s, n in sorted(want - got)]
    return score


SUMMARIES = frozenset({"summary", "verdict"})


def evaluate_notes(find: Finder = check) -> Score:
    """`find`'s flags on the notes of tests/claims_notes.py, (note, question) pair by
    pair. The check reads each note alone, as it does a thread reply, so a set's notes
    are read in one call and each flagged sentence goes to the notes that say it."""
    score = Score()
    for noted in NOTE_SETS:
        said = [
            NoteText(by="U0REVIEW", ts=f"17000001{i:02d}.000100", text=n.text)
            for i, n in enumerate(noted.notes)
        ]
        found = find(transcript(noted), said)
        for note in noted.notes:
            own = set(sentences(note.text))
            got = {n for s, ns in found if s in own for n in ns}
            want = set(note.questions)
            score.labelled += len(want)
            score.flagged += len(got)
            score.right += len(want & got)
            where = f"{noted.seed}-{noted.emptied}"
            score.wrong += [f"{where} Q{n}: {note.text}" for n in sorted(got - want)]
            score.missed += [f"{where} Q{n}: {note.text}" for n in sorted(want - got)]
    return score
