import { useState } from 'preact/hooks';
import type { MediaPartView } from './api.js';
import { api } from './api.js';
import { formatBytes } from './format.js';

/** `image/png · 68 bytes · 1×1`: what the page says of a part beside it. */
function facts(part: MediaPartView): string {
  const shown = [part.mediaType];
  if (part.size !== undefined) shown.push(formatBytes(part.size));
  if (part.width !== undefined && part.height !== undefined)
    shown.push(`${part.width}×${part.height}`);
  return shown.join(' · ');
}

/**
 * One media part of a message. Bytes are only ever loaded from the inspector's own part route:
 * a part by http(s) URL is shown as its address (a link the user may click), never as an image
 * or a player, so opening a thread makes no request to an address a model or user chose. Names,
 * types and addresses are text (Preact escapes them).
 */
export function PartView(props: { threadId: string; position: number; part: MediaPartView }) {
  const { threadId, position, part } = props;
  // An attachment the store no longer has (or inline data that does not decode) answers 404.
  const [failed, setFailed] = useState(false);
  const src = api.partUrl(threadId, position, part.index);
  const about = <span class="part-facts muted">{facts(part)}</span>;
  const gone = failed || part.display === 'unavailable';
  return (
    <div
      class={`part part-${part.type} part-${gone ? 'unavailable' : part.display}`}
      data-part={part.index}
    >
      {gone ? (
        <span class="part-name">
          {part.name}: not available{part.digest === undefined ? '' : ` (${part.digest})`}
        </span>
      ) : part.display === 'thumbnail' ? (
        <img class="thumbnail" src={src} alt={part.name} onError={() => setFailed(true)} />
      ) : part.display === 'player' ? (
        // biome-ignore lint/a11y/useMediaCaption: a model's audio has no captions to give.
        <audio controls preload="metadata" src={src} onError={() => setFailed(true)} />
      ) : part.display === 'download' ? (
        <a class="part-name" href={src} download={part.name}>
          {part.name}
        </a>
      ) : (
        <span class="part-address">
          {part.type} at{' '}
          {part.href === undefined ? (
            <code>{part.url}</code>
          ) : (
            <a href={part.href} rel="noopener noreferrer" target="_blank">
              {part.url}
            </a>
          )}{' '}
          <span class="muted">(not loaded)</span>
        </span>
      )}{' '}
      {about}
    </div>
  );
}
