import type { MediaPart } from '@skein/spec';
import { partByteLength } from '@skein/spec';
import { downloadName } from './download-name.js';
import { inlineMediaType } from './inline-media.js';

/**
 * How the page shows a media part:
 * - `thumbnail` / `player`: an image or audio clip whose bytes the inspector serves, inline;
 * - `download`: a link that downloads the bytes the inspector serves (files, and any type not
 *   safe to show inline, such as SVG);
 * - `address`: a part by http(s) URL, shown as its address and never loaded (the page makes no
 *   request to an address a model or a user chose);
 * - `unavailable`: an attachment (`ref`) the store cannot read (it has no `readAttachment`).
 */
export type PartDisplay = 'thumbnail' | 'player' | 'download' | 'address' | 'unavailable';

/** A media part as the API describes it: everything but its bytes. */
export interface MediaPartView {
  readonly type: MediaPart['type'];
  /** Its index in the message's content: what the part route takes. */
  readonly index: number;
  readonly mediaType: string;
  /** What a download is named: `filename`, or a name made from the type (`image-3-1.png`). */
  readonly name: string;
  readonly display: PartDisplay;
  /** Bytes, when known (not for a part by http(s) URL). */
  readonly size?: number;
  /** An image's size in pixels, when its attachment reference says. */
  readonly width?: number;
  readonly height?: number;
  /** A part by URL: the address, as text. */
  readonly url?: string;
  /** A part by URL whose address is http(s): what a link may point to (a click, never a load). */
  readonly href?: string;
  /** An attachment's digest (`sha256:…`). */
  readonly digest?: string;
}

/** A text part as the page gets it, or a media part described. */
export type PartView = { readonly type: 'text'; readonly text: string } | MediaPartView;

function webAddress(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

function display(part: MediaPart, readsAttachments: boolean): PartDisplay {
  if (part.url !== undefined && !/^data:/i.test(part.url)) return 'address';
  if (part.ref !== undefined && !readsAttachments) return 'unavailable';
  const inline = inlineMediaType(part);
  if (inline === undefined) return 'download';
  return part.type === 'image' ? 'thumbnail' : 'player';
}

function byteLength(part: MediaPart): number | undefined {
  try {
    return partByteLength(part);
  } catch {
    return undefined; // a store that holds something no checker let through: size unknown
  }
}

/**
 * Describes media part `index` of the message stored at `position`. `readsAttachments`: the
 * store has `readAttachment`, so a part by `ref` can be served (if the store still has it).
 */
export function mediaPartView(
  part: MediaPart,
  position: number,
  index: number,
  readsAttachments: boolean,
): MediaPartView {
  const size = byteLength(part);
  const href = part.url === undefined ? undefined : webAddress(part.url);
  const shown = display(part, readsAttachments);
  return {
    type: part.type,
    index,
    mediaType: part.mediaType,
    name: downloadName(part, position, index),
    display: shown,
    ...(size === undefined ? {} : { size }),
    ...(part.ref?.width === undefined ? {} : { width: part.ref.width }),
    ...(part.ref?.height === undefined ? {} : { height: part.ref.height }),
    ...(shown === 'address' ? { url: part.url } : {}),
    ...(shown === 'address' && href !== undefined ? { href } : {}),
    ...(part.ref === undefined ? {} : { digest: part.ref.digest }),
  };
}
