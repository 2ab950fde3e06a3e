// The WebSocket of one room: hello with the last seq seen, resume after a drop, actions with ids.

let nextId = 1;
// Close codes after which reconnecting would not help: left the seat, bad token, unknown room.
const FINAL_CLOSE = new Set([4000, 4401, 4404]);

/**
 * new Connection({code, token, onMessage(msg, info), onStatus(status, detail)})
 *   status: "connecting" | "open" | "reconnecting" | "closed"
 *   info: {replayed} — true for history: the snapshot after a fresh welcome, or missed messages on resume.
 */
export class Connection {
  constructor({ code, token, onMessage, onStatus }) {
    this.code = code;
    this.token = token || null;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.lastSeq = 0;
    this.stream = null;
    this.snapshotSeq = null;
    this.resumeUntil = null;
    this.lastView = null;
    this.pending = new Map();
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    this.pingTimer = null;
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    // The seat token travels in the hello, never in the address (servers and proxies log addresses).
    return `${scheme}//${location.host}/ws/${encodeURIComponent(this.code)}`;
  }

  connect() {
    this.closed = false;
    this.onStatus(this.attempt ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      const hello = { type: "hello", last_seq: this.lastSeq, stream: this.stream };
      if (this.token) hello.token = this.token;
      ws.send(JSON.stringify(hello));
      this.onStatus("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.raw({ type: "ping" }), 20000);
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      for (const { reject } of this.pending.values()) reject({ code: "disconnected", message: "connection lost" });
      this.pending.clear();
      if (this.closed || FINAL_CLOSE.has(event.code)) {
        this.closed = true;
        this.onStatus("closed", { code: event.code });
        return;
      }
      this.attempt += 1;
      const delay = Math.min(8000, 400 * 2 ** Math.min(this.attempt, 5));
      this.onStatus("reconnecting", { delay });
      setTimeout(() => !this.closed && this.connect(), delay);
    });
  }

  receive(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    let replayed = false;
    if (msg.kind === "welcome") {
      // resumed: the messages after our last_seq follow. Not resumed: forget everything; a snapshot
      // (presence, state, maybe over) follows, stamped with the welcome's own seq.
      this.stream = msg.stream ?? null;
      this.resumeUntil = msg.resumed ? msg.seq : null;
      if (!msg.resumed) {
        this.lastView = null;
        this.lastSeq = typeof msg.seq === "number" ? msg.seq : 0;
        this.snapshotSeq = this.lastSeq;
      } else this.snapshotSeq = null;
    } else if (typeof msg.seq === "number") {
      if (msg.seq === this.snapshotSeq) replayed = true; // part of the snapshot
      else if (msg.seq <= this.lastSeq) return; // already handled
      else {
        this.lastSeq = msg.seq;
        this.snapshotSeq = null;
        replayed = this.resumeUntil !== null && msg.seq <= this.resumeUntil;
      }
    }
    if (msg.kind === "accepted" || msg.kind === "rejected") {
      const waiting = this.pending.get(msg.id);
      if (waiting) {
        this.pending.delete(msg.id);
        if (msg.kind === "accepted") waiting.resolve(msg);
        else waiting.reject(msg);
      }
    }
    if (msg.kind === "pong") return;
    if (msg.kind === "state") this.fillSame(msg);
    this.onMessage(msg, { replayed });
  }

  // A state frame leaves out the view's parts that are what this stream sent last (a board, a history) and
  // names them in "same": the page gets the whole view, those parts from the state before (docs/protocol.md).
  fillSame(msg) {
    const view = msg.view;
    if (!view) return;
    const before = this.lastView;
    if (Array.isArray(msg.same) && before) for (const part of msg.same) if (!(part in view)) view[part] = before[part];
    this.lastView = view;
  }

  raw(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /** Send an action; resolves on "accepted", rejects with {code, message} on "rejected". */
  send(action) {
    const id = `c${nextId++}`;
    return new Promise((resolve, reject) => {
      if (!this.raw({ type: "action", id, action })) {
        reject({ code: "disconnected", message: "not connected" });
        return;
      }
      this.pending.set(id, { resolve, reject });
      setTimeout(() => {
        if (this.pending.delete(id)) reject({ code: "timeout", message: "no answer from the server" });
      }, 10000);
    });
  }

  /** Stop for good (no reconnect). */
  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }

  /** Drop the socket and reconnect at once (resuming from lastSeq). */
  reconnect() {
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
    this.attempt = 1;
    this.connect();
  }
}
