import { describe, expect, it } from 'vitest';
import { inspectorThreadUrl, inspectorUrlProblem, threadHtml } from './inspector-link.js';

describe('inspectorThreadUrl', () => {
  it("is the inspector's hash route of the thread, the id one escaped segment", () => {
    expect(inspectorThreadUrl('http://127.0.0.1:4319', 'run-1/q 7')).toBe(
      'http://127.0.0.1:4319/#/thread/run-1%2Fq%207',
    );
    // A path (behind a proxy) is kept, an existing hash replaced.
    expect(inspectorThreadUrl('https://tools.example/inspector/#/', 'r/a#b')).toBe(
      'https://tools.example/inspector/#/thread/r%2Fa%23b',
    );
  });
});

describe('inspectorUrlProblem', () => {
  it('takes absolute http(s) URLs only', () => {
    expect(inspectorUrlProblem('http://127.0.0.1:4319/')).toBeUndefined();
    expect(inspectorUrlProblem('https://inspector.example')).toBeUndefined();
    expect(inspectorUrlProblem('javascript:alert(1)')).toContain('must be an http(s) URL');
    expect(inspectorUrlProblem('file:///tmp/x')).toContain('must be an http(s) URL');
    expect(inspectorUrlProblem('127.0.0.1:4319')).toContain('must be');
    expect(inspectorUrlProblem('/inspector')).toContain('must be an absolute http(s) URL');
  });
});

describe('threadHtml', () => {
  it('links the thread when there is an inspector, shows its id otherwise, a dash for none', () => {
    expect(threadHtml('r/<b>', 'http://127.0.0.1:1/')).toBe(
      '<a class="thread" href="http://127.0.0.1:1/#/thread/r%2F%3Cb%3E" rel="noreferrer"><code>r/&lt;b&gt;</code></a>',
    );
    expect(threadHtml('r/<b>')).toBe('<code>r/&lt;b&gt;</code>');
    expect(threadHtml(undefined, 'http://127.0.0.1:1/')).toContain('—');
  });
});
