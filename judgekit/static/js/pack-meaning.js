/* The judge pack's search by meaning: all-MiniLM-L6-v2 in the browser, computing what the server
   computes (judgekit/meaning: tokens.py, encoder.py, passages.py), step for step.

   The part is optional: `judgekit build` writes it under meaning/ (pack/meaning.py) and the
   judge stores it on the phone only when asked ("Store search by meaning on this phone"). Until
   it is stored and loaded, the pack answers by words, and says so.

   API (window.JudgekitMeaning, in pages of the pack):
     JudgekitMeaning.info()        -> {available, size, reason}: whether this pack has the part
                                      and this page can use it (not from file://), its bytes
     JudgekitMeaning.isStored()    -> Promise<boolean>: whether the part is on this phone
     JudgekitMeaning.store(onProgress) -> Promise: fetch and keep it (Cache Storage where the
                                      page is a secure context, IndexedDB otherwise); then load
     JudgekitMeaning.remove()      -> Promise: forget it (and stop the model)
     JudgekitMeaning.ready()       -> Promise<boolean>: true once the model is loaded (in a Web
                                      Worker) and answers; false when it is not stored or cannot
                                      run here. Never loads what the judge did not store.
     JudgekitMeaning.state()       -> "missing" (no part in this pack) | "unavailable" (opened
                                      from a folder) | "not stored" | "loading" | "ready" | "failed"
                                      ("checking" until the manifest is read)
     JudgekitMeaning.nearness(question) -> Promise<Float64Array|null>: each search item's nearness
                                      (in search-index.js's item order), rounded as numpy rounds
                                      it (np.round(x, 6)); null when the model is not ready. Its
                                      `focus` (Int32Array, two for each item: the sentences of its
                                      nearest chunk, search/focus.py) shapes the snippets
     JudgekitMeaning.onchange(fn)  -> fn(state) whenever the state changes
     JudgekitMeaning.timings()     -> the worker's milliseconds for each recent question

   In Node (tests/node) the same file exports the computation: tokenizer(vocab), readTensors,
   Encoder, Passages, roundNear. In a Web Worker it is the worker: it loads the stored part and
   answers {id, question} with {id, near}. */
(function (global) {
  "use strict";

  /* -- the tokenizer (meaning/tokens.py; Hugging Face tokenizers' BertNormalizer, BertPreTokenizer
     and WordPiece as the model's tokenizer.json sets them) -------------------------------------- */
  var UNKNOWN = "[UNK]";
  var MAX_WORD = 100;   // characters: a longer word is [UNK]
  // The special tokens, matched in the text as typed, before anything else (tokenizer.json's
  // added_tokens: not normalized, anywhere in a word).
  var SPECIAL = /\[(?:PAD|UNK|CLS|SEP|MASK)\]/g;
  var OTHER = /^[\p{Cc}\p{Cf}\p{Co}\p{Cs}]$/u;
  var WHITE = /^\p{White_Space}$/u;
  var MARK = /^\p{Mn}$/u;
  var PUNCT = /^\p{P}$/u;
  var CJK = [[0x4E00, 0x9FFF], [0x3400, 0x4DBF], [0x20000, 0x2A6DF], [0x2A700, 0x2B73F],
    [0x2B740, 0x2B81F], [0x2B920, 0x2CEAF], [0xF900, 0xFAFF], [0x2F800, 0x2FA1F]];

  function isCjk(code) {
    for (var i = 0; i < CJK.length; i++) if (code >= CJK[i][0] && code <= CJK[i][1]) return true;
    return false;
  }
  function isPunct(ch) {
    var c = ch.codePointAt(0);
    return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126) || PUNCT.test(ch);
  }
  // Clean (control characters dropped, whitespace as spaces), CJK spaced, accents stripped (NFD
  // without non-spacing marks), then each character lowercased on its own (no final sigma).
  function normalize(text) {
    var out = "";
    for (var ch of text) {
      if (ch === "\t" || ch === "\n" || ch === "\r") out += " ";
      else if (ch === "\0" || ch === "\ufffd" || OTHER.test(ch)) continue;
      else if (WHITE.test(ch)) out += " ";
      else if (isCjk(ch.codePointAt(0))) out += " " + ch + " ";
      else out += ch;
    }
    var res = "";
    for (var c of out.normalize("NFD")) if (!MARK.test(c)) res += c.toLowerCase();
    return res;
  }
  function words(text) {
    var out = [], current = "";
    for (var ch of normalize(text)) {
      var white = WHITE.test(ch);
      if (white || isPunct(ch)) {
        if (current) { out.push(current); current = ""; }
        if (!white) out.push(ch);
      } else {
        current += ch;
      }
    }
    if (current) out.push(current);
    return out;
  }
  function tokenizer(vocabulary) {
    var ids = new Map(), longest = 0;
    vocabulary.forEach(function (w, i) { ids.set(w, i); longest = Math.max(longest, Array.from(w).length); });
    var unknown = ids.get(UNKNOWN);
    function word(w, out) {
      var chars = Array.from(w), n = chars.length;
      if (n > MAX_WORD) { out.push(unknown); return; }
      var plain = n === w.length, found = [], start = 0;
      while (start < n) {
        var end = Math.min(n, start + longest), id;
        while (end > start) {
          var sub = plain ? w.slice(start, end) : chars.slice(start, end).join("");
          id = ids.get(start === 0 ? sub : "##" + sub);
          if (id !== undefined) break;
          end--;
        }
        if (end === start) { out.push(unknown); return; }
        found.push(id);
        start = end;
      }
      for (var i = 0; i < found.length; i++) out.push(found[i]);
    }
    function plainPieces(text, out) { words(text).forEach(function (w) { word(w, out); }); }
    // A text's piece ids, without [CLS] and [SEP].
    return function pieces(text) {
      var out = [], at = 0, m;
      SPECIAL.lastIndex = 0;
      while ((m = SPECIAL.exec(text)) !== null) {
        plainPieces(text.slice(at, m.index), out);
        out.push(ids.get(m[0]));
        at = m.index + m[0].length;
      }
      plainPieces(text.slice(at), out);
      return out;
    };
  }

  /* -- the model's file: safetensors (8 bytes of header length, a JSON header, the data) ------- */
  var TYPES = {I8: Int8Array, U8: Uint8Array, I16: Int16Array, I32: Int32Array, F32: Float32Array, F64: Float64Array};
  function readTensors(buffer) {
    var view = new DataView(buffer);
    var length = view.getUint32(0, true) + view.getUint32(4, true) * 4294967296;
    var header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 8, length)));
    var base = 8 + length, out = {};
    Object.keys(header).forEach(function (name) {
      if (name === "__metadata__") return;
      var h = header[name], Type = TYPES[h.dtype];
      if (!Type) throw new Error("meaning: tensor " + name + " has type " + h.dtype);
      var begin = base + h.data_offsets[0], bytes = h.data_offsets[1] - h.data_offsets[0];
      var array = begin % Type.BYTES_PER_ELEMENT === 0
        ? new Type(buffer, begin, bytes / Type.BYTES_PER_ELEMENT)
        : new Type(buffer.slice(begin, begin + bytes));   // a view must be aligned: a copy
      out[name] = {data: array, shape: h.shape};
    });
    return out;
  }

  /* -- the encoder (meaning/encoder.py) --------------------------------------------------------- */
  var LAYERS = 6, HIDDEN = 384, HEADS = 12, WIDTH = 32, INNER = 1536, MAX_TOKENS = 128;
  var CLS = 101, SEP = 102, EPS = 1e-12, LEVELS = 255;
  var QUESTION_TOKENS = 64;   // meaning/model.py: a question's pieces embedded
  var ERFC = [-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807,
    -1.13520398, 1.48851587, -0.82215223, 0.17087277];
  var LINEAR = ["attention.self.query", "attention.self.key", "attention.self.value",
    "attention.output.dense", "intermediate.dense", "output.dense"];

  function erf(x) {
    var z = Math.abs(x), t = 1.0 / (1.0 + 0.5 * z), poly = ERFC[9];
    for (var i = 8; i >= 1; i--) poly = ERFC[i] + t * poly;
    var r = t * Math.exp(-z * z + (ERFC[0] + t * poly));
    return x >= 0 ? 1.0 - r : r - 1.0;
  }
  // Each row (n of them, width wide) to mean 0 and variance 1, then scaled and shifted, in place.
  function layerNorm(x, n, width, weight, bias) {
    for (var t = 0; t < n; t++) {
      var at = t * width, sum = 0, i;
      for (i = 0; i < width; i++) sum += x[at + i];
      var mean = sum / width, vs = 0;
      for (i = 0; i < width; i++) { var d = x[at + i] - mean; x[at + i] = d; vs += d * d; }
      var root = Math.sqrt(vs / width + EPS);
      for (i = 0; i < width; i++) x[at + i] = x[at + i] / root * weight[i] + bias[i];
    }
  }

  /* -- the matrices' products in WebAssembly SIMD, where the browser has it (Chrome 91, Safari
     16.4, Node 16): the same whole numbers summed exactly, 16 at a time, several times faster than
     the loops of Encoder.linear. Compiled from this text (wabt's wat2wasm --enable-simd):
     (module
       (memory (export "memory") 1)
       ;; out[t][o] = sum over i of x[t][i] * w[o][i], for t < n, o < cols, i < rows (rows: a multiple
       ;; of 16): x as 16-bit whole numbers, w (each output's row of weights) as 8-bit, out as 32-bit.
       (func (export "matmul") (param $x i32) (param $w i32) (param $out i32) (param $n i32) (param $rows i32) (param $cols i32)
         (local $t i32) (local $o i32) (local $i i32) (local $xrow i32) (local $wrow i32) (local $at i32) (local $acc v128) (local $wv v128)
         (block $tdone (loop $tloop
           (br_if $tdone (i32.ge_u (local.get $t) (local.get $n)))
           (local.set $xrow (i32.add (local.get $x) (i32.shl (i32.mul (local.get $t) (local.get $rows)) (i32.const 1))))
           (local.set $o (i32.const 0))
           (block $odone (loop $oloop
             (br_if $odone (i32.ge_u (local.get $o) (local.get $cols)))
             (local.set $wrow (i32.add (local.get $w) (i32.mul (local.get $o) (local.get $rows))))
             (local.set $acc (v128.const i32x4 0 0 0 0))
             (local.set $i (i32.const 0))
             (block $idone (loop $iloop
               (br_if $idone (i32.ge_u (local.get $i) (local.get $rows)))
               (local.set $wv (v128.load (i32.add (local.get $wrow) (local.get $i))))
               (local.set $at (i32.add (local.get $xrow) (i32.shl (local.get $i) (i32.const 1))))
               (local.set $acc (i32x4.add (local.get $acc)
                 (i32x4.dot_i16x8_s (v128.load (local.get $at)) (i16x8.extend_low_i8x16_s (local.get $wv)))))
               (local.set $acc (i32x4.add (local.get $acc)
                 (i32x4.dot_i16x8_s (v128.load offset=16 (local.get $at)) (i16x8.extend_high_i8x16_s (local.get $wv)))))
               (local.set $i (i32.add (local.get $i) (i32.const 16)))
               (br $iloop)))
             (i32.store
               (i32.add (local.get $out) (i32.shl (i32.add (i32.mul (local.get $t) (local.get $cols)) (local.get $o)) (i32.const 2)))
               (i32.add
                 (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
                 (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
             (local.set $o (i32.add (local.get $o) (i32.const 1)))
             (br $oloop)))
           (local.set $t (i32.add (local.get $t) (i32.const 1)))
           (br $tloop)))))
  */
  var MATMUL = "AGFzbQEAAAABCgFgBn9/f39/fwADAgEABQMBAAEHEwIGbWVtb3J5AgAGbWF0bXVsAAAK5QEB4gECBn8CewJAA0AgBiADTw0BIAAgBiAEbEEBdGohCUEAIQcCQANAIAcgBU8NASABIAcgBGxqIQr9DAAAAAAAAAAAAAAAAAAAAAAhDEEAIQgCQANAIAggBE8NASAKIAhq/QAEACENIAkgCEEBdGohCyAMIAv9AAQAIA39hwH9ugH9rgEhDCAMIAv9AAQQIA39iAH9ugH9rgEhDCAIQRBqIQgMAAsLIAIgBiAFbCAHakECdGogDP0bACAM/RsBaiAM/RsCIAz9GwNqajYCACAHQQFqIQcMAAsLIAZBAWohBgwACwsL";
  function align(n) { return Math.ceil(n / 16) * 16; }
  function wasmKernel(linears, most) {
    var instance;
    try {
      var raw = atob(MATMUL), bytes = new Uint8Array(raw.length);
      for (var b = 0; b < raw.length; b++) bytes[b] = raw.charCodeAt(b);
      instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
    } catch (e) {
      return null;   // no WebAssembly, or no SIMD: the loops in JavaScript
    }
    var at = 0;
    linears.forEach(function (m) { m.at = at; at = align(at + m.rows * m.cols); });
    var xAt = at, outAt = align(xAt + most * INNER * 2), end = outAt + most * INNER * 4;
    var memory = instance.exports.memory, pages = Math.ceil(end / 65536) - memory.buffer.byteLength / 65536;
    if (pages > 0) memory.grow(pages);
    var w = new Int8Array(memory.buffer);
    // Each output's weights in a row of their own (the rows × cols matrix, transposed).
    linears.forEach(function (m) {
      for (var i = 0; i < m.rows; i++) {
        for (var o = 0, from = i * m.cols; o < m.cols; o++) w[m.at + o * m.rows + i] = m.q[from + o];
      }
    });
    return {
      matmul: instance.exports.matmul, xAt: xAt, outAt: outAt,
      xq: new Int16Array(memory.buffer, xAt, most * INNER), acc: new Int32Array(memory.buffer, outAt, most * INNER)
    };
  }

  function Encoder(tensors, options) {
    var t = function (name) {
      if (!tensors[name]) throw new Error("meaning: the model has no tensor " + name);
      return tensors[name].data;
    };
    this.words = t("words");
    this.wordScale = t("words.scale");
    var positions = t("positions"), type0 = t("type0");
    this.start = new Float64Array(MAX_TOKENS * HIDDEN);
    for (var p = 0; p < MAX_TOKENS; p++) {
      for (var j = 0; j < HIDDEN; j++) this.start[p * HIDDEN + j] = positions[p * HIDDEN + j] + type0[j];
    }
    this.norm = [t("norm.weight"), t("norm.bias")];
    this.layers = [];
    for (var l = 0; l < LAYERS; l++) {
      this.layers.push({
        linear: LINEAR.map(function (name) {
          var key = l + "." + name, q = tensors[key];
          return {q: q.data, rows: q.shape[0], cols: q.shape[1], scale: t(key + ".scale"), bias: t(key + ".bias")};
        }),
        norms: ["attention.output.LayerNorm", "output.LayerNorm"].map(function (name) {
          return [t(l + "." + name + ".weight"), t(l + "." + name + ".bias")];
        })
      });
    }
    // Scratch space for the longest text, made once: a question allocates nothing per layer.
    var most = MAX_TOKENS;
    this.x = new Float64Array(most * HIDDEN);
    this.q = new Float64Array(most * HIDDEN);
    this.k = new Float64Array(most * HIDDEN);
    this.v = new Float64Array(most * HIDDEN);
    this.att = new Float64Array(most * HIDDEN);
    this.y = new Float64Array(most * HIDDEN);
    this.inner = new Float64Array(most * INNER);
    this.sx = new Float64Array(most);
    var all = [];
    this.layers.forEach(function (L) { all.push.apply(all, L.linear); });
    this.kernel = options && options.wasm === false ? null : wasmKernel(all, most);
    this.xq = this.kernel ? this.kernel.xq : new Int16Array(most * INNER);
    this.acc = this.kernel ? this.kernel.acc : new Int32Array(most * INNER);
    this.scores = new Float64Array(most);
  }
  // Each row as whole numbers from -LEVELS to LEVELS (encoder.py: round_rows).
  Encoder.prototype.roundRows = function (x, n, width) {
    var xq = this.xq, sx = this.sx;
    for (var t = 0; t < n; t++) {
      var at = t * width, peak = 0, i;
      for (i = 0; i < width; i++) { var a = Math.abs(x[at + i]); if (a > peak) peak = a; }
      var scale = (peak > 0 ? peak : LEVELS) / LEVELS;
      for (i = 0; i < width; i++) xq[at + i] = Math.floor(x[at + i] / scale + 0.5);
      sx[t] = scale;
    }
  };
  // out = round(x) @ q, scaled back: acc * row scale * column scale + bias (encoder.py: Linear).
  // The products of whole numbers and their sums are exact, in any order.
  // rounded: x was rounded already (the query, key and value share their input).
  Encoder.prototype.linear = function (m, x, n, out, rounded) {
    var rows = m.rows, cols = m.cols, q = m.q, xq = this.xq, acc = this.acc, t, i, o;
    if (!rounded) this.roundRows(x, n, rows);
    // |sum| <= rows * LEVELS * 127 < 2**31: whole numbers in 32 bits, exact.
    if (this.kernel) {
      this.kernel.matmul(this.kernel.xAt, m.at, this.kernel.outAt, n, rows, cols);
      this.scaleBack(m, n, out);
      return;
    }
    acc.fill(0, 0, n * cols);
    // Four texts' rows at a time over each row of weights: a weight is read once for four.
    for (t = 0; t + 4 <= n; t += 4) {
      var a0 = t * cols, a1 = a0 + cols, a2 = a1 + cols, a3 = a2 + cols;
      var r0 = t * rows, r1 = r0 + rows, r2 = r1 + rows, r3 = r2 + rows;
      for (i = 0; i < rows; i++) {
        var x0 = xq[r0 + i] | 0, x1 = xq[r1 + i] | 0, x2 = xq[r2 + i] | 0, x3 = xq[r3 + i] | 0, w = i * cols;
        for (o = 0; o < cols; o++) {
          var wv = q[w + o];
          acc[a0 + o] += x0 * wv; acc[a1 + o] += x1 * wv; acc[a2 + o] += x2 * wv; acc[a3 + o] += x3 * wv;
        }
      }
    }
    for (; t < n; t++) {
      var xa = t * rows, aa = t * cols;
      for (i = 0; i < rows; i++) {
        var a = xq[xa + i] | 0, wr = i * cols;
        for (o = 0; o < cols; o++) acc[aa + o] += a * q[wr + o];
      }
    }
    this.scaleBack(m, n, out);
  };
  Encoder.prototype.scaleBack = function (m, n, out) {
    var cols = m.cols, acc = this.acc, scale = m.scale, bias = m.bias, sx = this.sx;
    for (var t = 0; t < n; t++) {
      var s = sx[t], at = t * cols;
      for (var c = 0; c < cols; c++) out[at + c] = acc[at + c] * s * scale[c] + bias[c];
    }
  };
  Encoder.prototype.attention = function (n) {
    var q = this.q, k = this.k, v = this.v, att = this.att, scores = this.scores, root = Math.sqrt(WIDTH);
    for (var h = 0; h < HEADS; h++) {
      var off = h * WIDTH;
      for (var i = 0; i < n; i++) {
        var qi = i * HIDDEN + off, peak = -Infinity, j, d;
        for (j = 0; j < n; j++) {
          var kj = j * HIDDEN + off, dot = 0;
          for (d = 0; d < WIDTH; d++) dot += q[qi + d] * k[kj + d];
          dot = dot / root;
          scores[j] = dot;
          if (dot > peak) peak = dot;
        }
        var sum = 0;
        for (j = 0; j < n; j++) { scores[j] = Math.exp(scores[j] - peak); sum += scores[j]; }
        for (d = 0; d < WIDTH; d++) att[qi + d] = 0;
        for (j = 0; j < n; j++) {
          var wgt = scores[j] / sum, vj = j * HIDDEN + off;
          for (d = 0; d < WIDTH; d++) att[qi + d] += wgt * v[vj + d];
        }
      }
    }
  };
  Encoder.prototype.layer = function (L, n) {
    var x = this.x, y = this.y, inner = this.inner, m = L.linear, i;
    this.roundRows(x, n, HIDDEN);
    this.linear(m[0], x, n, this.q, true);
    this.linear(m[1], x, n, this.k, true);
    this.linear(m[2], x, n, this.v, true);
    this.attention(n);
    this.linear(m[3], this.att, n, y, false);
    for (i = 0; i < n * HIDDEN; i++) x[i] = y[i] + x[i];
    layerNorm(x, n, HIDDEN, L.norms[0][0], L.norms[0][1]);
    this.linear(m[4], x, n, inner, false);
    for (i = 0; i < n * INNER; i++) { var g = inner[i]; inner[i] = 0.5 * g * (1.0 + erf(g / Math.SQRT2)); }
    this.linear(m[5], inner, n, y, false);
    for (i = 0; i < n * HIDDEN; i++) x[i] = y[i] + x[i];
    layerNorm(x, n, HIDDEN, L.norms[1][0], L.norms[1][1]);
  };
  // The unit vector of piece ids (at most MAX_TOKENS - 2 of them), mean-pooled (embed_ids).
  Encoder.prototype.embedIds = function (pieces) {
    var ids = [CLS].concat(pieces.slice(0, MAX_TOKENS - 2), [SEP]), n = ids.length, x = this.x;
    for (var t = 0; t < n; t++) {
      var id = ids[t], ws = this.wordScale[id], row = id * HIDDEN;
      for (var j = 0; j < HIDDEN; j++) x[t * HIDDEN + j] = this.words[row + j] * ws + this.start[t * HIDDEN + j];
    }
    layerNorm(x, n, HIDDEN, this.norm[0], this.norm[1]);
    for (var l = 0; l < LAYERS; l++) this.layer(this.layers[l], n);
    var mean = new Float64Array(HIDDEN);
    for (t = 0; t < n; t++) for (j = 0; j < HIDDEN; j++) mean[j] += x[t * HIDDEN + j];
    var dot = 0;
    for (j = 0; j < HIDDEN; j++) { mean[j] = mean[j] / n; }
    for (j = 0; j < HIDDEN; j++) dot += mean[j] * mean[j];
    var length = Math.sqrt(dot);
    for (j = 0; j < HIDDEN; j++) mean[j] = mean[j] / length;
    return mean;
  };

  /* -- nearness (meaning/passages.py) ------------------------------------------------------------ */
  // numpy's np.round(x, 6): rint(x * 1e6) / 1e6, halves to even.
  function roundNear(x) {
    var y = x * 1e6, r = Math.round(y);
    if (r - y === 0.5 && r % 2 !== 0) r -= 1;
    return r / 1e6;
  }
  // vectors: Float32Array (chunks × HIDDEN), owners: Int32Array (each chunk's item, ascending);
  // focus: Int32Array, two for each chunk: the first and last sentence of its item's text it
  // holds, -1 where not known (search/focus.py), or null.
  function Passages(vectors, owners, count, focus) {
    this.vectors = vectors;
    this.owners = owners;
    this.count = count;
    this.focus = focus || null;
  }
  // Each item's nearness (rounded) and its nearest chunk: the first of its chunks whose rounded
  // cosine is the item's nearness (passages.py: nearness, nearest).
  Passages.prototype.asked = function (query) {
    var out = new Float64Array(this.count).fill(-Infinity), chunks = new Int32Array(this.count);
    var v = this.vectors, owners = this.owners;
    for (var c = 0; c < owners.length; c++) {
      var at = c * HIDDEN, dot = 0;
      for (var j = 0; j < HIDDEN; j++) dot += v[at + j] * query[j];
      var near = roundNear(dot), o = owners[c];
      if (near > out[o]) { out[o] = near; chunks[o] = c; }
    }
    return {near: out, chunks: chunks};
  };
  Passages.prototype.nearness = function (query) { return this.asked(query).near; };
  // Each item's nearest chunk's sentences, two for each item (-1: not known); null without them.
  Passages.prototype.focusOf = function (chunks) {
    if (!this.focus) return null;
    var out = new Int32Array(2 * this.count);
    for (var i = 0; i < this.count; i++) {
      out[2 * i] = this.focus[2 * chunks[i]];
      out[2 * i + 1] = this.focus[2 * chunks[i] + 1];
    }
    return out;
  };

  // A question's nearness to every item (model.py: MeaningModel.nearness).
  function Model(tensors, vocabulary, passages, options) {
    this.encoder = new Encoder(tensors, options);
    this.pieces = tokenizer(vocabulary);
    this.passages = passages;
  }
  Model.prototype.embed = function (text) { return this.encoder.embedIds(this.pieces(text)); };
  Model.prototype.nearness = function (question) { return this.asked(question).near; };
  // The nearness, and each item's nearest chunk's sentences (pack-search.js: near.focus).
  Model.prototype.asked = function (question) {
    var found = this.passages.asked(this.encoder.embedIds(this.pieces(question).slice(0, QUESTION_TOKENS)));
    return {near: found.near, focus: this.passages.focusOf(found.chunks)};
  };
  function passagesOf(tensors) {
    return new Passages(tensors.vectors.data, tensors.owners.data, tensors.count.data[0],
      tensors.focus ? tensors.focus.data : null);
  }

  var core = {tokenizer: tokenizer, normalize: normalize, words: words, readTensors: readTensors,
              Encoder: Encoder, Passages: Passages, Model: Model, passagesOf: passagesOf,
              roundNear: roundNear, QUESTION_TOKENS: QUESTION_TOKENS};
  if (typeof module === "object" && module.exports) { module.exports = core; return; }
  global.JudgekitMeaningCore = core;

  /* -- where the part is kept: Cache Storage (a secure context: https, localhost), else IndexedDB
     (a pack opened over plain http on the venue's network). Keyed by the files' hashed names, so
     a newer pack with the same model keeps it. ------------------------------------------------ */
  var CACHE = "judgekit-meaning";
  function useCaches() { return !!(global.caches && global.isSecureContext); }
  function openDb() {
    return new Promise(function (resolve, reject) {
      var req = indexedDB.open(CACHE, 1);
      req.onupgradeneeded = function () { req.result.createObjectStore("files"); };
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
  }
  function dbDo(mode, work) {
    return openDb().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction("files", mode), store = tx.objectStore("files"), result;
        var req = work(store);
        if (req) req.onsuccess = function () { result = req.result; };
        tx.oncomplete = function () { db.close(); resolve(result); };
        tx.onerror = tx.onabort = function () { db.close(); reject(tx.error); };
      });
    });
  }
  var store = {
    // The file's bytes, or null when it is not kept.
    get: function (root, name) {
      if (useCaches()) {
        return caches.open(CACHE).then(function (c) { return c.match(new URL(name, root).href); })
          .then(function (r) { return r ? r.arrayBuffer() : null; });
      }
      return dbDo("readonly", function (s) { return s.get(name); }).then(function (b) { return b || null; });
    },
    has: function (root, name) {
      if (useCaches()) {
        return caches.open(CACHE).then(function (c) { return c.match(new URL(name, root).href); }).then(Boolean);
      }
      return dbDo("readonly", function (s) { return s.getKey(name); }).then(function (k) { return k !== undefined; });
    },
    put: function (root, name, bytes) {
      if (useCaches()) {
        return caches.open(CACHE).then(function (c) {
          return c.put(new URL(name, root).href, new Response(bytes, {headers: {"Content-Type": "application/octet-stream"}}));
        });
      }
      return dbDo("readwrite", function (s) { s.put(bytes, name); });
    },
    // Keep only these names (an older pack's files go); none: forget everything.
    keep: function (root, names) {
      var wanted = new Set(names.map(function (n) { return new URL(n, root).href; }));
      if (useCaches()) {
        if (!names.length) return caches.delete(CACHE);
        return caches.open(CACHE).then(function (c) {
          return c.keys().then(function (keys) {
            return Promise.all(keys.filter(function (k) { return !wanted.has(k.url); }).map(function (k) { return c.delete(k); }));
          });
        });
      }
      return dbDo("readwrite", function (s) {
        var req = s.getAllKeys();
        req.onsuccess = function () {
          req.result.forEach(function (k) { if (!wanted.has(new URL(k, root).href)) s.delete(k); });
        };
      });
    }
  };

  /* -- in the Web Worker: load the stored part, then answer questions ---------------------------- */
  if (typeof document === "undefined" && typeof importScripts === "function") {
    var model = null;
    global.onmessage = function (event) {
      var m = event.data;
      if (m.type === "load") {
        var f = m.manifest.files;
        Promise.all([f.model, f.vocab, f.passages].map(function (file) {
          return store.get(m.root, file.name).then(function (bytes) {
            if (!bytes || bytes.byteLength !== file.size) throw new Error(file.name + " is not stored whole");
            return bytes;
          });
        })).then(function (parts) {
          model = new Model(readTensors(parts[0]), new TextDecoder().decode(parts[1]).split("\n"),
            passagesOf(readTensors(parts[2])));
          model.nearness("rule");   // compiled once, before the judge's first question
          global.postMessage({type: "ready"});
        }).catch(function (e) { global.postMessage({type: "failed", reason: String(e && e.message || e)}); });
      } else if (m.type === "near") {
        var began = performance.now(), found = model ? model.asked(m.question) : null;
        var near = found && found.near, focus = found && found.focus;
        global.postMessage({type: "near", id: m.id, near: near, focus: focus, ms: performance.now() - began},
          [near, focus].filter(Boolean).map(function (a) { return a.buffer; }));
      }
    };
    return;
  }

  /* -- in a page of the pack ------------------------------------------------------------------- */
  if (typeof document === "undefined") return;
  var script = document.currentScript;
  var file = script && script.src;
  var root = new URL("../../", file || global.location.href).href;
  // checking (until the manifest is read), missing (no part in this pack), unavailable (file://),
  // not stored, loading, ready, failed
  var state = "checking";
  var manifest = null, worker = null, readying = null, listeners = [], reason = "";
  var asked = 0, pendingNear = new Map(), waiting = null, timings = [];

  function setState(s) {
    state = s;
    listeners.forEach(function (fn) { try { fn(s); } catch (e) { /* a listener's own error */ } });
  }
  // The part's manifest (meaning/manifest.js, in the base pack): a script, so file:// reads it.
  var manifestLoaded = new Promise(function (resolve) {
    if (global.JUDGEKIT_MEANING) { resolve(global.JUDGEKIT_MEANING); return; }
    var tag = document.createElement("script");
    tag.src = root + "meaning/manifest.js";
    tag.onload = function () { resolve(global.JUDGEKIT_MEANING || null); };
    tag.onerror = function () { resolve(null); };
    document.head.appendChild(tag);
  }).then(function (m) {
    manifest = m;
    if (!m) { setState("missing"); return null; }
    // Chromium lets a page opened from a folder (file://) neither fetch files nor start a worker.
    if (!/^https?:$/.test(global.location.protocol) || typeof Worker === "undefined") {
      reason = "file";
      setState("unavailable");
      return m;
    }
    return Promise.all(names().map(function (n) { return store.has(root, n); })).then(function (found) {
      if (found.every(Boolean)) {
        setState("loading");
        start();
      } else if (found.some(Boolean)) {
        // A newer pack: the judge stored the part before; fetch only what changed (the vectors,
        // most often), not waited for here.
        setState("loading");
        setTimeout(function () { store_().catch(function () { setState("not stored"); }); }, 0);
      } else {
        setState("not stored");
      }
      return m;
    }, function () { setState("not stored"); return m; });
  });

  function names() {
    var f = manifest.files;
    return [f.model.name, f.vocab.name, f.passages.name];
  }
  function isStored() {
    if (!manifest || state === "unavailable") return Promise.resolve(false);
    return Promise.all(names().map(function (n) { return store.has(root, n); }))
      .then(function (found) { return found.every(Boolean); }, function () { return false; });
  }
  function start() {
    if (worker) return readying;
    setState("loading");
    readying = new Promise(function (resolve) {
      try {
        worker = new Worker(file);
      } catch (e) {
        reason = String(e && e.message || e);
        setState("failed");
        resolve(false);
        return;
      }
      worker.onmessage = function (event) {
        var m = event.data;
        if (m.type === "ready") { setState("ready"); resolve(true); }
        else if (m.type === "failed") { reason = m.reason; setState("failed"); resolve(false); }
        else if (m.type === "near") {
          var done = pendingNear.get(m.id);
          pendingNear.delete(m.id);
          timings.push(m.ms);   // the worker's own time per question (benchmarks)
          if (timings.length > 50) timings.shift();
          // The nearness carries each item's nearest chunk's sentences (pack-search.js: finish).
          if (m.near) m.near.focus = m.focus || null;
          if (done) done(m.near || null);
        }
      };
      worker.onerror = function (event) {
        reason = event.message || "the worker stopped";
        setState("failed");
        resolve(false);
      };
      worker.postMessage({type: "load", root: root, manifest: manifest});
    });
    return readying;
  }
  function digest(bytes) {
    if (!(global.crypto && crypto.subtle)) return Promise.resolve(null);   // plain http: no digest
    return crypto.subtle.digest("SHA-256", bytes).then(function (d) {
      return Array.from(new Uint8Array(d)).map(function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
    });
  }
  function fetchFile(f, onBytes) {
    return fetch(new URL(f.name, root).href).then(function (response) {
      if (!response.ok) throw new Error(f.name + ": HTTP " + response.status);
      if (!response.body || !response.body.getReader) return response.arrayBuffer();
      var reader = response.body.getReader(), chunks = [], got = 0;
      function pump() {
        return reader.read().then(function (r) {
          if (r.done) return;
          chunks.push(r.value);
          got += r.value.length;
          onBytes(r.value.length);
          return pump();
        });
      }
      return pump().then(function () {
        var out = new Uint8Array(got), at = 0;
        chunks.forEach(function (c) { out.set(c, at); at += c.length; });
        return out.buffer;
      });
    }).then(function (bytes) {
      if (bytes.byteLength !== f.size) throw new Error(f.name + " came cut short");
      return digest(bytes).then(function (hex) {
        if (hex !== null && hex !== f.sha256) throw new Error(f.name + " is not the file the pack names");
        return bytes;
      });
    });
  }
  function store_(onProgress) {
    return manifestLoaded.then(function () {
      if (!manifest) throw new Error("this pack has no search by meaning");
      if (state === "unavailable") throw new Error("search by meaning cannot run from a folder");
      var f = manifest.files, done = 0, total = manifest.size;
      var tell = function (n) { done += n; if (onProgress) onProgress(done, total); };
      return [f.model, f.vocab, f.passages].reduce(function (chain, file) {
        return chain.then(function () {
          return store.has(root, file.name).then(function (kept) {
            if (kept) { tell(file.size); return null; }
            return fetchFile(file, tell).then(function (bytes) { return store.put(root, file.name, bytes); });
          });
        });
      }, Promise.resolve()).then(function () { return store.keep(root, names()); }).then(start);
    });
  }
  function remove() {
    if (worker) { worker.terminate(); worker = null; readying = null; }
    pendingNear.forEach(function (done) { done(null); });
    pendingNear.clear();
    return store.keep(root, []).then(function () { setState(manifest && state !== "unavailable" ? "not stored" : state); });
  }
  // Only the newest question waits: one asked while another waited replaces it (typing).
  function nearness(question) {
    return manifestLoaded.then(function () { return state === "ready" || state === "loading" ? readying : false; })
      .then(function (ok) {
        if (!ok || !worker) return null;
        if (waiting) { waiting.resolve(null); waiting = null; }
        return new Promise(function (resolve) {
          var id = ++asked;
          if (!pendingNear.size) {
            pendingNear.set(id, resolve);
            worker.postMessage({type: "near", id: id, question: question});
            return;
          }
          waiting = {resolve: resolve};
          var send = function () {
            if (!waiting || waiting.resolve !== resolve) return;
            waiting = null;
            pendingNear.set(id, resolve);
            worker.postMessage({type: "near", id: id, question: question});
          };
          var check = function () { if (pendingNear.size) setTimeout(check, 10); else send(); };
          setTimeout(check, 10);
        });
      });
  }

  global.JudgekitMeaning = {
    info: function () {
      return {available: !!manifest && state !== "unavailable", size: manifest ? manifest.size : 0, reason: reason, state: state};
    },
    isStored: function () { return manifestLoaded.then(isStored); },
    store: store_,
    remove: remove,
    ready: function () {
      return manifestLoaded.then(function () { return state === "loading" || state === "ready" ? readying : false; });
    },
    state: function () { return state; },
    nearness: nearness,
    onchange: function (fn) { listeners.push(fn); },
    timings: function () { return timings.slice(); }
  };
  // pack-search.js's provider (api.meaning): its state, a question's nearness, ready().
  var api = global.judgekit = global.judgekit || {};
  api.meaning = {
    get state() { return state; },
    nearness: nearness,
    ready: global.JudgekitMeaning.ready
  };

  /* -- the judge's choice, on the search page and home: store it, or remove it ------------------- */
  // One decimal, as `judgekit build` prints the size of meaning/ (and the README says it).
  function mb(bytes) { return (bytes / 1e6).toFixed(1) + " MB"; }
  function panel() {
    var box = document.createElement("div");
    box.className = "pack-meaning";
    box.setAttribute("role", "status");
    var anchor = document.querySelector("details.search-options") || document.querySelector("main h1, h1");
    if (!anchor) return;
    anchor.parentNode.insertBefore(box, anchor.nextSibling);
    function render(s, progress) {
      var size = manifest ? mb(manifest.size) : "";
      box.textContent = "";
      var text = document.createElement("span");
      box.appendChild(text);
      var button = function (label, act) {
        var b = document.createElement("button");
        b.type = "button";
        b.textContent = label;
        b.addEventListener("click", act);
        box.appendChild(document.createTextNode(" "));
        box.appendChild(b);
        return b;
      };
      if (progress) {
        text.textContent = "Storing search by meaning on this phone: " + mb(progress[0]) + " of " + size + "…";
      } else if (s === "not stored") {
        text.textContent = "Search answers by words. Search by meaning also finds rules asked about in your own words.";
        button("Store search by meaning on this phone (" + size + ")", function () {
          render(s, [0, manifest.size]);
          store_(function (done) { render(s, [done, manifest.size]); }).catch(function (e) {
            reason = String(e && e.message || e);
            render("not stored");
            text.textContent = "Search by meaning was not stored (" + reason + "). Search answers by words.";
          });
        });
      } else if (s === "loading") {
        text.textContent = "Search by meaning is stored on this phone (" + size + "); loading it…";
      } else if (s === "ready") {
        text.textContent = "Search by meaning is on: stored on this phone (" + size + ").";
        button("Remove it", function () { remove(); });
      } else if (s === "failed") {
        text.textContent = "Search by meaning could not start on this phone (" + reason + "); search answers by words.";
        button("Remove it", function () { remove(); });
      } else if (s === "unavailable") {
        text.textContent = "Search by meaning needs the pack opened from its web address: opened from a folder, search answers by words.";
      }
      box.hidden = s === "missing" || s === "checking";
    }
    listeners.push(function (s) { render(s); });
    render(state);
  }
  manifestLoaded.then(function () {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", panel);
    else panel();
  });
})(typeof self !== "undefined" ? self : globalThis);
