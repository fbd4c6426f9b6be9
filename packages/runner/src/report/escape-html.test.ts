import { describe, expect, it } from 'vitest';
import { escapeHtml } from './escape-html.js';

describe('escapeHtml', () => {
  it('escapes markup and both quotes, and leaves other text as it is', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;',
    );
    expect(escapeHtml('é → 😀 %2F')).toBe('é → 😀 %2F');
  });

  it('escapes an entity so it shows as typed', () => {
    expect(escapeHtml('&lt;')).toBe('&amp;lt;');
  });
});
