"""Deterministic synthetic interview transcripts, for benchmarks.

The text comes from a character-level Markov model (order 3, with occasional
order-2 / order-1 steps so it drifts away from the training text) trained on the
real samples in ``seeds/``. ASCII words (TensorFlow, C++, Client/Server) are one
token each, and some are swapped for other technical terms, so the vocabulary is
wider than the seeds'. Questions, goals, answers and the reviewer's paragraphs
(summary, 简介, 点评) each have their own model, which prefers that section's
transitions and backs off to the whole text.

Speed: walking the chain one character at a time is too slow in Python, so for
every context the model samples a few fixed-length continuations ("chunks") up
front; generating is then picking one chunk after another, each chunk pointing at
the options for the context it ends in.

Output is a function of ``seed`` and the file index only: the same files come out
whatever the number of worker processes.

    python bench/corpus.py --count 100000 --out /tmp/corpus --seed 0
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path
from typing import NamedTuple

SEEDS_DIR = Path(__file__).resolve().parent.parent / "seeds"

ORDER = 3
CHUNK_TOKENS = 8  # tokens per precomputed continuation
CHUNKS_PER_CONTEXT = 8  # continuations sampled per context
P_ORDER3 = 0.90  # else an order-2 step, or (P_ORDER1) an order-1 step
P_ORDER1 = 0.015
P_STYLE = 0.85  # an order-3 step uses the section's own transitions when it has them
P_SWAP_TERM = 0.25  # an ASCII word is replaced by a term from TERMS
# A paragraph may name something rare (a project, a product, a jargon word): word k of
# an endless lexicon, with k drawn log-uniformly below RARE_WORDS, so that word k turns
# up about 1/k as often as word 1. This gives the long tail of rare terms that a
# Markov chain over a few seed files cannot.
P_RARE_WORD = 0.3
RARE_WORDS = 1_000_000

MIN_BYTES = 5_000
MAX_BYTES = 20_000
P_UNANSWERED = 0.15
P_VERDICT = 0.85

POSITIONS = (
    "视频开发工程师",
    "大数据开发工程师",
    "机器学习工程师",
    "算法工程师",
    "后端开发工程师",
    "前端开发工程师",
    "数据分析师",
    "测试开发工程师",
    "运维开发工程师",
    "嵌入式软件工程师",
    "深度学习研究员",
    "推荐算法工程师",
    "自然语言处理工程师",
    "计算机视觉工程师",
    "数据仓库工程师",
    "云平台架构师",
    "安全工程师",
    "移动端开发工程师",
    "技术项目经理",
    "产品经理",
)

TERMS = (
    "TensorFlow",
    "PyTorch",
    "Keras",
    "Kubernetes",
    "Docker",
    "Spark",
    "Flink",
    "Hadoop",
    "Hive",
    "Kafka",
    "Redis",
    "MySQL",
    "PostgreSQL",
    "Elasticsearch",
    "ClickHouse",
    "Prometheus",
    "Grafana",
    "C++",
    "Java",
    "Go",
    "Rust",
    "Python",
    "CUDA",
    "NCCL",
    "Horovod",
    "ONNX",
    "TensorRT",
    "gRPC",
    "Protobuf",
    "XGBoost",
    "LightGBM",
    "BERT",
    "Transformer",
    "ResNet",
    "LSTM",
    "FFmpeg",
    "WebRTC",
    "Nginx",
    "Linux",
    "Parameter Server",
    "All-Reduce",
    "Ring-AllReduce",
    "Embedding",
    "Adam",
    "SGD",
    "A/B",
    "Airflow",
    "HDFS",
    "Zookeeper",
    "RocksDB",
)

# An ASCII word (TensorFlow, C++, Client/Server, All-Reduce, 3.5) is one token,
# anything else one character.
_TOKEN_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9+#]*(?:[./-][A-Za-z0-9+#]+)*|.", re.S)
_LABEL_RE = re.compile(r"^(?:问题\s*\d*|考察目标|回答|点评|岗位|从业年限|简介)\s*[:：]")
_SENTENCE_END = "。！？"
_STYLES = ("question", "goal", "answer", "review")


class Chunk(NamedTuple):
    text: str
    nbytes: int
    cut: str | None  # text up to and including its first sentence end, if any
    cut_nbytes: int
    after: list[Chunk]  # the options for the context this chunk ends in


Context = tuple[int, int, int]


def read_seeds(seeds_dir: Path = SEEDS_DIR) -> dict[str, list[str]]:
    """The seeds' paragraphs by section: summary, intro, question, goal, answer, verdict."""
    sections: dict[str, list[str]] = {
        key: [] for key in ("summary", "intro", "question", "goal", "answer", "verdict")
    }
    labels = (
        ("问题", "question"),
        ("考察目标", "goal"),
        ("回答", "answer"),
        ("点评", "verdict"),
        ("简介", "intro"),
        ("岗位", ""),
    )
    for path in sorted(seeds_dir.glob("*.txt")):
        current = "summary"
        for raw in path.read_text(encoding="utf-8").splitlines():
            line = raw.strip()
            for label, key in labels:
                if line.startswith(label):
                    m = re.match(r"^\S*?\d*\s*[:：]\s*", line[len(label) :])
                    if m is not None:
                        current = key
                        line = line[len(label) + m.end() :]
                        break
            if line and current:
                sections[current].append(line)
    return sections


class MarkovText:
    """Chunk tables per style, built once per seed."""

    def __init__(self, sections: dict[str, list[str]], seed: int) -> None:
        rng = random.Random(f"corpus-model-{seed}")
        self._rng = rng
        self.vocab: list[str] = []
        ids: dict[str, int] = {}
        tokenized: dict[str, list[list[int]]] = {}
        for key, paragraphs in sections.items():
            tokenized[key] = []
            for para in paragraphs:
                toks: list[int] = []
                for tok in _TOKEN_RE.findall(para):
                    if tok not in ids:
                        ids[tok] = len(self.vocab)
                        self.vocab.append(tok)
                    toks.append(ids[tok])
                if len(toks) > ORDER:
                    tokenized[key].append(toks)
        self._swappable = {
            i for i, tok in enumerate(self.vocab) if len(tok) > 1 and not tok.isdigit()
        }
        self._digits = {i for i, tok in enumerate(self.vocab) if tok.isdigit()}

        style_of = {
            "question": "question",
            "goal": "goal",
            "answer": "answer",
            "summary": "review",
            "intro": "review",
            "verdict": "review",
        }
        everything = [p for paras in tokenized.values() for p in paras]
        self._g3, self._g2, self._g1 = self._counts(everything)
        self._by_tail = {ctx[1:]: ctx for ctx in self._g3}
        self._s3 = {
            style: self._counts(
                [p for key, paras in tokenized.items() if style_of[key] == style for p in paras]
            )[0]
            for style in _STYLES
        }
        # Tables: the review, question and goal styles cover their own contexts; the
        # answer style covers every context and catches walks that leave the others.
        self.tables: dict[str, dict[Context, list[Chunk]]] = {}
        for style in _STYLES:
            keys = self._g3 if style == "answer" else self._s3[style]
            self.tables[style] = {ctx: [] for ctx in keys}
        for style in _STYLES:
            for ctx, options in self.tables[style].items():
                for _ in range(CHUNKS_PER_CONTEXT):
                    options.append(self._chunk(style, ctx))
        # Paragraph starts: the first tokens of each sentence of each section.
        self.starts: dict[str, list[Chunk]] = {}
        for key, paras in tokenized.items():
            table = self.tables[style_of[key]]
            starts: list[Chunk] = []
            for toks in paras:
                begin = 0
                for pos, tok in enumerate(toks):
                    if pos == begin and pos + ORDER <= len(toks):
                        ctx = (toks[pos], toks[pos + 1], toks[pos + 2])
                        if ctx in table and not any(t in self._digits for t in ctx):
                            text = "".join(self.vocab[t] for t in ctx)
                            if not text[0].isspace() and text[0] not in "，、；：）)":
                                starts.append(Chunk(text, len(text.encode()), None, 0, table[ctx]))
                    if self.vocab[tok] in _SENTENCE_END:
                        begin = pos + 1
            self.starts[key] = starts
        # The seeds' 简介 lines are few and start with numbers: borrow the summaries'.
        self.starts["intro"] += self.starts["summary"]
        # The alphabets of the rare words, in an order that depends on the seed.
        chars = sorted({ch for tok in self.vocab for ch in tok if "\u4e00" <= ch <= "\u9fff"})
        rng.shuffle(chars)
        self.cjk_chars = "".join(chars)
        syllables = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
        rng.shuffle(syllables)
        self.syllables = syllables

    def rare_word(self, k: int) -> str:
        """Word `k` of the rare lexicon: 2-3 CJK characters, or a made-up name (Kobatesu)."""
        h = k * 2_654_435_761 % 4_294_967_296  # scatter neighbouring k over the alphabet
        if k % 2:
            chars, n = self.cjk_chars, len(self.cjk_chars)
            word = chars[h % n] + chars[h // n % n]
            return word + chars[h // (n * n) % n] if k % 3 == 0 else word
        syl, n = self.syllables, len(self.syllables)
        count = 2 if k < 2_000 else 3 if k < 100_000 else 4
        return "".join(syl[h // n**i % n] for i in range(count)).capitalize()

    @staticmethod
    def _counts(
        paragraphs: Iterable[list[int]],
    ) -> tuple[dict[Context, list[int]], dict[tuple[int, int], list[int]], dict[int, list[int]]]:
        """Successor lists (with repeats, so picking uniformly follows the counts).

        The paragraphs are chained in a ring, so every context has a successor."""
        seq = [t for para in paragraphs for t in para]
        n = len(seq)
        c3: dict[Context, list[int]] = {}
        c2: dict[tuple[int, int], list[int]] = {}
        c1: dict[int, list[int]] = {}
        for i in range(n):
            a, b, c, d = seq[i], seq[(i + 1) % n], seq[(i + 2) % n], seq[(i + 3) % n]
            c3.setdefault((a, b, c), []).append(d)
            c2.setdefault((b, c), []).append(d)
            c1.setdefault(c, []).append(d)
        return c3, c2, c1

    def _step(self, style: str, ctx: Context) -> int:
        rnd = self._rng.random
        r = rnd()
        if r < P_ORDER3:
            own = self._s3[style].get(ctx)
            succ = own if own is not None and rnd() < P_STYLE else self._g3.get(ctx)
            if succ is not None:
                return succ[int(rnd() * len(succ))]
        if r < 1.0 - P_ORDER1:
            succ = self._g2.get((ctx[1], ctx[2]))
            if succ is not None:
                return succ[int(rnd() * len(succ))]
        succ = self._g1[ctx[2]]
        return succ[int(rnd() * len(succ))]

    def _chunk(self, style: str, ctx: Context) -> Chunk:
        rnd = self._rng.random
        own = self.tables[style]
        parts: list[str] = []
        steps = 0
        while True:
            tok = self._step(style, ctx)
            ctx = (ctx[1], ctx[2], tok)
            text = self.vocab[tok]
            if tok in self._swappable and rnd() < P_SWAP_TERM:
                text = TERMS[int(rnd() * len(TERMS))]
            elif tok in self._digits:
                text = str(int(rnd() * 20) + 1)
            parts.append(text)
            steps += 1
            if steps >= CHUNK_TOKENS and (ctx in own or steps >= 3 * CHUNK_TOKENS):
                break
        if ctx in own:
            after = own[ctx]
        elif ctx in self._g3:
            after = self.tables["answer"][ctx]
        else:  # an order-1 step made a new context: go on from one with the same tail
            after = self.tables["answer"][self._by_tail[ctx[1:]]]
        text = "".join(parts)
        nbytes = len(text.encode())
        cut = None
        ends = [i for i in (text.find(ch) for ch in _SENTENCE_END) if i >= 0]
        if ends:
            cut = text[: min(ends) + 1]
        return Chunk(text, nbytes, cut, len(cut.encode()) if cut else 0, after)


@cache
def model(seed: int = 0) -> MarkovText:
    return MarkovText(read_seeds(), seed)


def _paragraph(rng: random.Random, m: MarkovText, section: str, target: int) -> str:
    """Sentences from `section`'s model, about `target` UTF-8 bytes, ending a sentence."""
    starts = m.starts[section]
    rnd = rng.random
    start = starts[int(rnd() * len(starts))]
    parts = [start.text]
    n = start.nbytes
    options = start.after
    while n < target:
        chunk = options[int(rnd() * CHUNKS_PER_CONTEXT)]
        if chunk.cut is not None and n + chunk.cut_nbytes >= target:
            parts.append(chunk.cut)
            break
        parts.append(chunk.text)
        n += chunk.nbytes
        options = chunk.after
    else:
        parts.append(_finish(rnd, options))
    text = "".join(parts).strip()
    if rnd() < P_RARE_WORD:
        k = int(RARE_WORDS ** rnd())
        word = m.rare_word(k)
        at = text.find("，") + 1
        if at:
            text = text[:at] + word + text[at:]
    if _LABEL_RE.match(text):
        text = "关于" + text
    return text


def _finish(rnd: Callable[[], float], options: list[Chunk]) -> str:
    """Text from `options` up to the end of a sentence."""
    parts = []
    for _ in range(40):
        chunk = options[int(rnd() * CHUNKS_PER_CONTEXT)]
        if chunk.cut is not None:
            parts.append(chunk.cut)
            break
        parts.append(chunk.text)
        options = chunk.after
    else:
        parts.append("。")
    return "".join(parts)


def _nbytes(text: str) -> int:
    return len(text.encode())


def file_rng(seed: int, i: int) -> random.Random:
    return random.Random(seed * 1_000_003 + i)


def file_name(i: int, rng: random.Random) -> str:
    return f"{i:06d}_{rng.getrandbits(64):016x}.txt"


def transcript(i: int, rng: random.Random | None = None, *, seed: int = 0) -> str:
    """The text of transcript `i`: deterministic in (seed, i) when `rng` is not given."""
    if rng is None:
        rng = file_rng(seed, i)
    m = model(seed)
    rnd = rng.random
    position = POSITIONS[int(rnd() * len(POSITIONS))]
    years = rng.randint(1, 15)
    target = min(max(int(MIN_BYTES + rng.gammavariate(2.0, 2_500.0)), 5_600), 19_000)

    summary = _paragraph(rng, m, "summary", rng.randint(120, 900))
    if rnd() < 0.5:
        summary = f"这位面试者是一位有着{years}年工作经验的{position}。{summary}"
    intro = _paragraph(rng, m, "intro", rng.randint(60, 240))
    if rnd() < 0.3:
        intro = f"拥有{years}年经验的{position}。{intro}"
    head = [summary, f"岗位： {position} 从业年限： {years}年", f"简介： {intro}"]
    verdict = (
        f"点评： {_paragraph(rng, m, 'verdict', rng.randint(200, 1_000))}"
        if rnd() < P_VERDICT
        else None
    )

    n_questions = rng.randint(3, 12)
    questions: list[tuple[str, str]] = []
    answers: list[list[str] | None] = []
    for k in range(1, n_questions + 1):
        q = _paragraph(rng, m, "question", rng.randint(30, 110))
        g = _paragraph(rng, m, "goal", rng.randint(30, 90))
        questions.append((f"问题{k}：{q}", f"考察目标：{g}"))
        answers.append(None if rnd() < P_UNANSWERED else [])
    answered = [k for k, a in enumerate(answers) if a is not None]
    if not answered:
        k = rng.randrange(n_questions)
        answers[k] = []
        answered = [k]

    fixed = sum(_nbytes(line) + 1 for line in head)
    fixed += sum(_nbytes(q) + _nbytes(g) + 2 for q, g in questions)
    fixed += len(answers) * (len("回答：".encode()) + 1)
    fixed += _nbytes(verdict) + 1 if verdict is not None else 0
    budget = target - fixed
    weights = [rng.random() + 0.3 for _ in answered]
    total_weight = sum(weights)
    size = fixed
    for k, w in zip(answered, weights, strict=True):
        paras = answers[k]
        assert paras is not None
        share = max(int(budget * w / total_weight), 150)
        used = 0
        while used < share:
            para = _paragraph(rng, m, "answer", min(rng.randint(150, 800), share - used))
            paras.append(para)
            used += _nbytes(para) + 1
        size += used
    # Hold the size inside [MIN_BYTES, MAX_BYTES].
    while size < MIN_BYTES + 200:
        paras = answers[answered[int(rnd() * len(answered))]]
        assert paras is not None
        para = _paragraph(rng, m, "answer", rng.randint(150, 600))
        paras.append(para)
        size += _nbytes(para) + 1
    while size > MAX_BYTES - 200:
        longest = max(answered, key=lambda k: len(answers[k] or ()))
        paras = answers[longest]
        assert paras is not None
        if len(paras) <= 1:
            break
        size -= _nbytes(paras.pop()) + 1

    lines = head
    for (q, g), paras in zip(questions, answers, strict=True):
        lines.append(q)
        lines.append(g)
        lines.append("回答： " + "\n".join(paras) if paras else "回答：")
    if verdict is not None:
        lines.append(verdict)
    return "\n".join(lines) + "\n"


def _write_range(seed: int, start: int, stop: int, out_dir: str) -> list[str]:
    names = []
    for i in range(start, stop):
        rng = file_rng(seed, i)
        name = file_name(i, rng)
        text = transcript(i, rng, seed=seed)
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
            f.write(text)
        names.append(name)
    return names


def generate(count: int, out_dir: Path, seed: int = 0, workers: int | None = None) -> list[Path]:
    """Write `count` transcripts into `out_dir` (created if needed); return their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    model(seed)  # build once, before forking
    workers = workers or min(os.cpu_count() or 1, 8)
    if workers <= 1 or count < 2_000 or "fork" not in multiprocessing.get_all_start_methods():
        names = _write_range(seed, 0, count, str(out_dir))
    else:
        step = max(500, count // (workers * 8))
        bounds = [(a, min(a + step, count)) for a in range(0, count, step)]
        ctx = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
            futures = [pool.submit(_write_range, seed, a, b, str(out_dir)) for a, b in bounds]
            names = [name for fut in futures for name in fut.result()]
    return [out_dir / name for name in names]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--count", type=int, required=True, help="number of files")
    parser.add_argument("--out", type=Path, required=True, help="output directory")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: CPUs)")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    paths = generate(args.count, args.out, args.seed, args.workers)
    elapsed = time.perf_counter() - began
    total = sum(p.stat().st_size for p in paths)
    print(
        f"{len(paths)} files, {total / 1e6:.1f} MB in {elapsed:.1f} s -> {args.out}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
