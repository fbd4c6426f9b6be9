/** The JSON body of `POST /virtual` (StableToolBench server/main.py L38-44). */
export interface ToolBenchServerRequestBody {
  readonly category: string;
  readonly tool_name: string;
  readonly api_name: string;
  readonly tool_input: string | Readonly<Record<string, unknown>>;
  readonly strip: string;
  readonly toolbench_key: string;
}

/** A request as the server received it. */
export interface RecordedToolBenchRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The `toolbench_key` header. */
  readonly key: string | undefined;
  readonly rawBody: string;
  /** The body when it had the protocol's shape (else the server answered 422). */
  readonly body: ToolBenchServerRequestBody | undefined;
  /**
   * The API the server reads from `api_name` when the body was valid:
   * `change_name(standardize(api_name))` cut at `_for_<tool_name>`, so `querykeywords` for both
   * `querykeywords_for_keyword_analysis` and `querykeywords`.
   */
  readonly apiName?: string;
  /** `tool_input` as the server reads it: a string parsed as JSON (`""` is `{}`), an object kept. */
  readonly toolInput: unknown;
  /** The HTTP status the server answered with. */
  readonly status: number;
}

/** A valid call, as handed to a responder. */
export interface ToolBenchCall extends RecordedToolBenchRequest {
  readonly body: ToolBenchServerRequestBody;
  readonly apiName: string;
}

/** What the server answers: `{"error": …, "response": …}` (both default to `""`). */
export interface ToolBenchReply {
  readonly error?: string;
  readonly response?: unknown;
}

export type ToolBenchResponder = (call: ToolBenchCall) => ToolBenchReply | Promise<ToolBenchReply>;

/** Switchable failure modes, for the client's error paths. */
export type ToolBenchServerFailure =
  /** Answer with this HTTP status (default 500) and a short text body. */
  | { readonly kind: 'http-error'; readonly status?: number }
  /** Answer 200 with a body that is not JSON (default `<html>upstream error</html>`). */
  | { readonly kind: 'malformed'; readonly body?: string }
  /** Answer normally, but only after `ms` milliseconds (longer than a client's timeout). */
  | { readonly kind: 'delay'; readonly ms: number };

export interface StartToolBenchServerOptions {
  /**
   * Canned replies by API (a reply or a function of the call), or one function for every call.
   * A key matches the API the server reads from `api_name` (the full function name
   * `<api>_for_<tool>` and the API part alone both give `<api>`), or else `api_name` exactly as
   * received. An API with no reply gets the server's own last-resort answer,
   * `{"error": "Failed to generate fake response", "response": ""}`.
   */
  readonly responses?:
    | Readonly<Record<string, ToolBenchReply | ToolBenchResponder>>
    | ToolBenchResponder;
  /** The endpoint path; default `/virtual`. */
  readonly path?: string;
  /** A failure mode active from the start. */
  readonly failure?: ToolBenchServerFailure;
}

export interface ToolBenchServer {
  /** The endpoint, e.g. `http://127.0.0.1:40123/virtual`. */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order (invalid ones included). */
  readonly requests: readonly RecordedToolBenchRequest[];
  /** Switches a failure mode on (for the next `times` requests, default all) or off (`undefined`). */
  setFailure(
    failure: ToolBenchServerFailure | undefined,
    options?: { readonly times?: number },
  ): void;
  close(): Promise<void>;
}
