// The page talks to the server only through the engine protocol (docs/engine.md).

const PAGE_ID = `page-${Math.random().toString(36).slice(2)}-${Date.now()}`;
let nextId = 1;

export class EngineError extends Error {
  constructor(answer) {
    super(answer.error || "the engine refused the request");
    this.field = answer.field ?? null;
    this.answer = answer;
  }
}

function headers() {
  return { "Content-Type": "application/json", "X-Page-Id": PAGE_ID };
}

/** One query, its final answer (throws EngineError for an error answer). */
export async function engine(query) {
  const body = { id: nextId++, ...query };
  let response;
  // 429: this page's two searches are still under way (a stream that is just ending): wait a moment, up to 6 s
  for (let attempt = 0; ; attempt++) {
    response = await fetch("/api/engine", { method: "POST", headers: headers(), body: JSON.stringify(body) });
    if (response.status !== 429 || attempt >= 40) break;
    await new Promise((resolve) => { setTimeout(resolve, 150); });
  }
  let answer;
  try {
    answer = await response.json();
  } catch {
    throw new EngineError({ error: `the server answered ${response.status}`, field: null });
  }
  if (!response.ok || answer.error) throw new EngineError(answer);
  return answer;
}

/** A streamed query: onAnswer(answer) for every interim answer and the final one; returns {done, stop}. */
export function stream(query, onAnswer) {
  const controller = new AbortController();
  const id = nextId++;
  const done = (async () => {
    const response = await fetch("/api/stream", {
      method: "POST", headers: headers(), body: JSON.stringify({ id, ...query }), signal: controller.signal,
    });
    if (!response.ok) throw new EngineError(await response.json());
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    let last = null;
    for (;;) {
      const { value, done: finished } = await reader.read();
      if (finished) break;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const event = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = event.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
        if (!data) continue;
        last = JSON.parse(data);
        if (last.error) throw new EngineError(last);
        onAnswer(last);
      }
    }
    return last;
  })();
  return {
    done,
    /** Terminate the search; its final answer (the best so far, "terminated") still comes through ``done``; the
     * stream is cut only when it has not ended within two seconds. */
    stop: async () => {
      try { await engine({ action: "terminate", terminateId: id }); } catch { /* already over */ }
      const ended = await Promise.race([done.then(() => true, () => true),
                                        new Promise((resolve) => { setTimeout(() => resolve(false), 2000); })]);
      if (!ended) controller.abort();
    },
  };
}

// ---------------------------------------------------------------------- the table server (docs/web.md)

/** A request to the table server; its JSON answer (throws EngineError with .status and .answer on an error). */
async function tableRequest(method, path, body) {
  const init = { method, headers: { "X-Page-Id": PAGE_ID } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let answer;
  try {
    answer = await response.json();
  } catch {
    throw new EngineError({ error: `the server answered ${response.status}`, field: null });
  }
  if (!response.ok) {
    const error = new EngineError(answer);
    error.status = response.status;
    throw error;
  }
  return answer;
}

/** The table server's games: create one, and one key's seat (or the table link) of a game. */
export const tables = {
  create: (body) => tableRequest("POST", "/api/games", body),
  at(id, key) {
    const base = `/api/games/${encodeURIComponent(id)}/${encodeURIComponent(key)}`;
    return {
      base,
      get: () => tableRequest("GET", base),
      moves: (moves, expect) => tableRequest("POST", `${base}/moves`, { moves, expect }),
      undo: (expect) => tableRequest("POST", `${base}/undo`, { expect }),
      redo: (expect) => tableRequest("POST", `${base}/redo`, { expect }),
      record: () => tableRequest("GET", `${base}/record`),
      reveal: () => tableRequest("POST", `${base}/reveal`, {}),
      qr: `${base}/qr`,
      /** Server-sent events: onAnswer(answer) at once and on every change; onStatus("live"|"reconnecting"). */
      listen(onAnswer, onStatus) {
        const source = new EventSource(`${base}/events`);
        source.addEventListener("change", (event) => { onStatus("live"); onAnswer(JSON.parse(event.data)); });
        source.addEventListener("open", () => onStatus("live"));
        source.addEventListener("error", () => onStatus("reconnecting"));
        return () => source.close();
      },
    };
  },
};
