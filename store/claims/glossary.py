"""English words and phrases as a Chinese interview writes them, so that a note in
English speaks of a question in Chinese (`distributed training` is `分布式训练`, the
`trade-offs` of All-Reduce its `优缺点`), and the other way round; and a few Chinese
words said otherwise (`利弊`, `优劣` for `优缺点`; Taiwan's `分散式` for `分布式`). Both the questions
and the sentences read through it (topics.py), so the words they share are the same
words. Names written alike in both languages (TensorFlow, Kubernetes, LazyBuilder) need
no entry; words most questions say decide nothing whichever language says them."""

from __future__ import annotations

import re
from functools import cache
from itertools import pairwise

# english (a word or a phrase, singular) -> the Chinese a transcript writes
_TERMS: dict[str, str] = {
    # distributed systems and training
    "distributed": "分布式",
    "distributed training": "分布式训练",
    "distribute": "分布式",
    "training": "训练",
    "train": "训练",
    "trained": "训练",
    "elastic": "弹性",
    "elastic training": "弹性训练",
    "embedded": "嵌入式",
    "embedded training": "嵌入式训练",
    "parallelism": "并行",
    "multi-worker": "分布式",
    "multi-node": "分布式",
    "multi-machine": "分布式",
    "multi-gpu": "分布式",
    "multiple worker": "分布式",
    "multiple node": "分布式",
    "multiple machine": "分布式",
    "multiple gpu": "分布式",
    "parallel": "并行",
    "data parallelism": "数据并行",
    "data parallel": "数据并行",
    "model parallel": "模型并行",
    "model parallelism": "模型并行",
    "replication": "复制",
    "between-graph replication": "图间复制",
    "in-graph replication": "图内复制",
    "parameter server": "参数服务器",
    "synchronization": "同步",
    "synchronous": "同步",
    "asynchronous": "异步",
    "gradient": "梯度",
    "gradient compression": "梯度压缩",
    "learning rate": "学习率",
    "cluster": "集群",
    "node": "节点",
    "worker node": "工作节点",
    # models and learning
    "model": "模型",
    "programming": "编程",
    "programming model": "编程模型",
    "advanced": "高级",
    "high-level": "高级",
    "low-level": "低级",
    "neural network": "神经网络",
    "graph neural network": "图神经网络",
    "deep learning": "深度学习",
    "machine learning": "机器学习",
    "reinforcement learning": "强化学习",
    "federated learning": "联邦学习",
    "transfer learning": "迁移学习",
    "feature": "特征",
    "feature engineering": "特征工程",
    "embedding": "嵌入",
    "graph optimization": "图优化",
    "graph operation": "图操作",
    "data flow graph": "数据流图",
    "dataflow graph": "数据流图",
    "computation graph": "计算图",
    "computational graph": "计算图",
    "optimization": "优化",
    "optimize": "优化",
    "optimizer": "优化",
    "optimization algorithm": "优化算法",
    "loss": "损失",
    "loss function": "损失函数",
    "algorithm": "算法",
    "backpropagation": "反向传播",
    "backprop": "反向传播",
    "forward propagation": "前向传播",
    "propagation": "传播",
    "convolution": "卷积",
    "convolutional": "卷积",
    "pooling": "池化",
    "activation function": "激活函数",
    "overfitting": "过拟合",
    "regularization": "正则化",
    "mixed precision": "混合精度",
    "inference": "推理",
    "matrix": "矩阵",
    "derivation": "推导",
    "abstraction": "抽象",
    "framework": "框架",
    "recommendation": "推荐",
    "recommender": "推荐",
    "recommendation system": "推荐系统",
    "recommender system": "推荐系统",
    "recsys": "推荐系统",
    "on-device": "嵌入式",
    "choice": "选择",
    "selection": "选择",
    "modeling": "构建模型",
    "modelling": "构建模型",
    "model building": "构建模型",
    "trend": "趋势",
    "research direction": "研究方向",
    "image classification": "图像分类",
    "image recognition": "图像识别",
    "natural language processing": "自然语言处理",
    "sentiment analysis": "情感分析",
    "sparse": "稀疏",
    "discrete": "离散",
    "vector": "向量",
    "custom operator": "自定义算子",
    "custom op": "自定义算子",
    "operator": "算子",
    "extension": "扩展",
    "extend": "扩展",
    # software and systems
    "architecture": "架构",
    "service": "服务",
    "serving": "服务",
    "deployment": "部署",
    "deploy": "部署",
    "application": "应用",
    "use case": "应用场景",
    "scenario": "场景",
    "challenge": "挑战",
    "success story": "成功案例",
    "success case": "成功案例",
    "favourite": "喜欢",
    "favorite": "喜欢",
    "preference": "偏好",
    "pros and cons": "优缺点",
    "trade-off": "优缺点",
    "tradeoff": "优缺点",
    "advantages and disadvantages": "优缺点",
    "strengths and weaknesses": "优缺点",
    "single-node": "单机",
    "standalone": "单机",
    "single machine": "单机",
    "principle": "原理",
    "internals": "原理",
    "scheduling": "调度",
    "scheduler": "调度",
    "resource": "资源",
    "memory": "内存",
    "memory leak": "内存泄漏",
    "leak": "泄漏",
    "monitoring": "监控",
    "alerting": "告警",
    "logging": "日志",
    "cache": "缓存",
    "caching": "缓存",
    "eviction": "淘汰",
    "database": "数据库",
    "index": "索引",
    "indexing": "索引",
    "query": "查询",
    "message queue": "消息队列",
    "queue": "队列",
    "reliable delivery": "可靠投递",
    "delivery": "投递",
    "streaming": "流式",
    "canary release": "灰度发布",
    "gray release": "灰度发布",
    "release": "发布",
    "rollout": "发布",
    "security": "安全",
    "authentication": "认证",
    "authorization": "授权",
    "protocol": "协议",
    "performance": "性能",
    "latency": "延迟",
    "throughput": "吞吐",
    "scalability": "可扩展性",
    "concurrency": "并发",
    "thread": "线程",
    "transaction": "事务",
    "consistency": "一致性",
    "availability": "可用性",
    "fault tolerance": "容错",
    "load balancing": "负载均衡",
    "microservice": "微服务",
    "container": "容器",
    "network": "网络",
    "virtual dom": "虚拟 DOM",
    "rendering": "渲染",
    "compiler": "编译器",
    "garbage collection": "垃圾回收",
    "tuning": "调优",
    "debugging": "调试",
    "testing": "测试",
    "preprocessing": "预处理",
    "state management": "状态管理",
    "role": "角色",
    "contribution": "贡献",
    "responsibility": "职责",
    "project": "项目",
    "functionality": "功能",
    "factor": "因素",
    "consider": "考虑",
    "consideration": "考虑",
    "build": "构建",
    "built": "构建",
    "backward propagation": "反向传播",
    "backward": "反向",
    "forward": "前向",
    # short forms
    "tf": "tensorflow",
    "k8s": "kubernetes",
    "nlp": "自然语言处理",
    "gnn": "图神经网络",
    "cnn": "卷积神经网络",
    "rnn": "循环神经网络",
    "rl": "强化学习",
    "mq": "消息队列",
    "gc": "垃圾回收",
    "lr": "学习率",
}

# Chinese said otherwise -> as a question writes it (`利弊` is `优缺点`)
_SYNONYMS: dict[str, str] = {
    "利弊": "优缺点",
    "优劣势": "优缺点",
    "优劣": "优缺点",
    "优点和缺点": "优缺点",
    "优点与缺点": "优缺点",
    "优势和劣势": "优缺点",
    "优势与劣势": "优缺点",
    "优势和局限": "优缺点",
    "优势与局限": "优缺点",
    "优点和不足": "优缺点",
    "优点与不足": "优缺点",
    "长处和短处": "优缺点",
    "取舍": "优缺点",
    # the same said by other words: 高阶 is 高级, 多机(多卡) is 分布式
    "高阶": "高级",
    "多机多卡": "分布式",
    "多机": "分布式",
    "多节点": "分布式",
    "建模": "构建模型",
    # a question's Latin words, said in Chinese (客户端/服务器 is Client/Server)
    "客户端/服务器": "client/server",
    "客户端/服务端": "client/server",
    "客户端-服务器": "client/server",
    "客户端-服务端": "client/server",
    "客户端和服务器": "client/server",
    "客户端与服务器": "client/server",
    "客户端": "client",
    "服务端": "server",
    "服务器端": "server",
    # Taiwan's and Hong Kong's words, once in one script (資料庫 is 资料库 by then)
    "分散式": "分布式",
    "伺服器": "服务器",
    "资料库": "数据库",
    "资料": "数据",
    "程式设计": "编程",
    "程式": "程序",
    "记忆体": "内存",
    "快取": "缓存",
    "类神经网路": "神经网络",
    "神经网路": "神经网络",
    "网路": "网络",
    "演算法": "算法",
    "最佳化": "优化",
    "丛集": "集群",
    "执行绪": "线程",
    "伫列": "队列",
    "效能": "性能",
    "专案": "项目",
    "物件": "对象",
    "介面": "接口",
    "软体": "软件",
    "硬体": "硬件",
}


# short forms written with a slash (`C/S` is Client/Server), as the words they stand for
_SLASHED: dict[str, str] = {
    "c/s": "client/server",
    "b/s": "browser/server",
}
# … and the same without the slash before 架构, 模式 (`CS架构`)
_UNSLASHED = {k.replace("/", ""): v for k, v in _SLASHED.items()}

_LONGEST = 4  # words in the longest English term


@cache
def _english_words() -> re.Pattern[str]:
    return re.compile(r"(?<![a-z0-9_])[a-z0-9]+(?:-[a-z0-9]+)*(?![a-z0-9_])")


@cache
def _gap() -> re.Pattern[str]:
    return re.compile(r"[\s-]+")


# the endings an English word takes (`extending`, `considers`, `trained`), longest first,
# each with what may have stood before it (`optimizing` was `optimize`)
_ENDINGS = (("ing", ("", "e")), ("es", ("",)), ("ed", ("", "e")), ("s", ("",)), ("d", ("",)))


def _forms(phrase: str) -> list[str]:
    """`phrase` and its last word without an ending: the forms a glossary entry may have."""
    found = [phrase]
    for ending, before in _ENDINGS:
        if phrase.endswith(ending) and len(phrase) > len(ending) + 2:
            found += [phrase[: -len(ending)] + b for b in before]
    return found


def _term(said: list[str]) -> str | None:
    """The Chinese of the English words `said` (a term, in any of its forms), if any."""
    phrase = " ".join(said).replace("-", " ")
    for form in _forms(phrase):
        for key in (form, form.replace(" ", "-")):
            if key in _TERMS:
                return _TERMS[key]
    return None


def _in_chinese(text: str) -> str:
    """Each English term of `text` (casefolded) as the Chinese a transcript writes, the
    longest first: a word at a time, over the few Latin words a Chinese text has."""
    found = list(_english_words().finditer(text))
    out: list[str] = []
    at = 0
    i = 0
    while i < len(found):
        for n in range(min(_LONGEST, len(found) - i), 0, -1):
            run = found[i : i + n]
            apart = all(_gap().fullmatch(text[a.end() : b.start()]) for a, b in pairwise(run))
            chinese = _term([m.group(0) for m in run]) if apart else None
            if chinese is not None:
                out += [text[at : run[0].start()], f" {chinese} "]
                at = run[-1].end()
                i += n
                break
        else:
            i += 1
    out.append(text[at:])
    return "".join(out)


@cache
def _between_chinese() -> re.Pattern[str]:
    return re.compile(r"(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])")


@cache
def _synonyms() -> re.Pattern[str]:
    said = sorted(_SYNONYMS, key=len, reverse=True)
    return re.compile("|".join(re.escape(s) for s in said))


@cache
def _slashed() -> re.Pattern[str]:
    said = "|".join(re.escape(s) for s in _SLASHED)
    bare = "|".join(re.escape(s) for s in _UNSLASHED)
    return re.compile(
        rf"(?<![a-z0-9/])(?:{said}|(?:{bare})(?=\s*(?:架构|模式|结构|architecture)))(?![a-z0-9/])"
    )


def _short_form(said: str) -> str:
    return _SLASHED.get(said) or _UNSLASHED[said]


def as_chinese(text: str) -> str:
    """`text` (casefolded, in one script) with each English term of the glossary, and
    each Chinese word said otherwise, written as a Chinese interview writes it; the rest
    kept as it is."""
    text = _slashed().sub(lambda m: f" {_short_form(m.group(0))} ", text)
    text = _synonyms().sub(lambda m: f" {_SYNONYMS[m.group(0)]} ", text)
    text = _in_chinese(text)
    # `distributed training project` as one would write it: 分布式训练项目
    return _between_chinese().sub("", text)
