/**
 * yaml-language-server (the engine of the VS Code YAML extension) as a child process, driven over
 * stdio with JSON-RPC (`Content-Length` framed), the way an editor drives it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface LspDiagnostic {
  message: string;
  range: { start: { line: number; character: number } };
  severity?: number;
}

export interface CompletionItem {
  label: string;
  /** What choosing it inserts (a snippet such as `repeat: ${1:1}`). */
  insertText?: string;
  /** Where the server gives the text as an edit of the line instead. */
  textEdit?: { newText: string };
}

/** What an editor's settings say: validation and completion on, schemas from the files' modelines only. */
const YAML_SETTINGS = { validate: true, completion: true, hover: true, schemaStore: { enable: false } };

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

export class YamlLanguageServer {
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly diagnostics = new Map<string, LspDiagnostic[]>();
  private readonly waiters: { uri: string; resolve: (d: LspDiagnostic[]) => void }[] = [];
  private readonly versions = new Map<string, number>();

  private constructor(
    private readonly child: ChildProcess,
    private readonly settings: Record<string, unknown>,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => this.receive(chunk));
  }

  /** `schemas`: a `yaml.schemas` setting (schema path → globs), as a user's settings.json gives it. */
  static async start(rootDir: string, schemas?: Record<string, string[]>): Promise<YamlLanguageServer> {
    const require = createRequire(import.meta.url);
    const bin = path.join(path.dirname(require.resolve('yaml-language-server/package.json')), 'bin', 'yaml-language-server');
    const child = spawn(process.execPath, [bin, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const server = new YamlLanguageServer(child, { ...YAML_SETTINGS, ...(schemas ? { schemas } : {}) });
    await server.request('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(rootDir).href,
      capabilities: { textDocument: { completion: { completionItem: { snippetSupport: false } }, publishDiagnostics: {} }, workspace: { configuration: true } },
    });
    server.notify('initialized', {});
    // What an editor sends from its settings: validation and completion on, schemas from the modelines.
    server.notify('workspace/didChangeConfiguration', { settings: { yaml: server.settings } });
    return server;
  }

  /** Opens a document and waits for its diagnostics. */
  async open(file: string, text: string): Promise<LspDiagnostic[]> {
    const uri = pathToFileURL(file).href;
    const waiting = new Promise<LspDiagnostic[]>((resolve) => this.waiters.push({ uri, resolve }));
    this.versions.set(uri, 1);
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    return waiting;
  }

  async complete(file: string, line: number, character: number): Promise<CompletionItem[]> {
    const result = (await this.request('textDocument/completion', { textDocument: { uri: pathToFileURL(file).href }, position: { line, character } })) as
      | { items: CompletionItem[] }
      | CompletionItem[]
      | null;
    if (!result) return [];
    return Array.isArray(result) ? result : result.items;
  }

  /** The hover text at a position (markdown), empty when there is none. */
  async hover(file: string, line: number, character: number): Promise<string> {
    const result = (await this.request('textDocument/hover', { textDocument: { uri: pathToFileURL(file).href }, position: { line, character } })) as { contents: { value: string } | string } | null;
    if (!result) return '';
    return typeof result.contents === 'string' ? result.contents : result.contents.value;
  }

  async stop(): Promise<void> {
    try {
      await this.request('shutdown', null);
      this.notify('exit', null);
    } finally {
      this.child.kill();
    }
  }

  private request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  private notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  private send(message: unknown): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.child.stdin!.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin!.write(body);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd === -1) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString('ascii'))?.[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8')) as {
        id?: number;
        method?: string;
        params?: { uri: string; diagnostics: LspDiagnostic[] };
        result?: unknown;
        error?: { message: string };
      };
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      this.handle(message);
    }
  }

  private handle(message: { id?: number; method?: string; params?: unknown; result?: unknown; error?: { message: string } }): void {
    if (message.method === undefined && message.id !== undefined) {
      const p = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) p?.reject(new Error(message.error.message));
      else p?.resolve(message.result);
      return;
    }
    if (message.method === 'textDocument/publishDiagnostics') {
      const { uri, diagnostics } = message.params as { uri: string; diagnostics: LspDiagnostic[] };
      this.diagnostics.set(uri, diagnostics);
      const i = this.waiters.findIndex((w) => w.uri === uri);
      if (i !== -1) this.waiters.splice(i, 1)[0]!.resolve(diagnostics);
      return;
    }
    // Requests from the server (configuration, registrations): answer so it goes on.
    if (message.id !== undefined && message.method !== undefined) {
      const result =
        message.method === 'workspace/configuration'
          ? ((message.params as { items: { section?: string }[] }).items ?? []).map((item) => (item.section === 'yaml' ? this.settings : null))
          : null;
      this.send({ jsonrpc: '2.0', id: message.id, result });
    }
  }
}
