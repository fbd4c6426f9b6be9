type Json = Record<string, unknown>;

// OpenAI's vision fine-tuning guide: images in user messages only, JPEG, PNG or WEBP, at most
// 10 MB each and 64 per example, given as http(s) URLs or base64 data: URLs.
const IMAGE_DATA_URL = /^data:image\/(jpeg|png|webp);base64,([A-Za-z0-9+/]*={0,2})$/;
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_IMAGES_PER_LINE = 64;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkImageUrl(url: unknown, where: string, problems: string[]): void {
  if (typeof url !== 'string') {
    problems.push(`${where}.image_url.url: must be a string`);
    return;
  }
  if (/^https?:\/\//i.test(url)) return;
  const data = IMAGE_DATA_URL.exec(url);
  if (!data) {
    problems.push(
      `${where}.image_url.url: must be an http(s) URL or data:image/(jpeg|png|webp);base64,…`,
    );
    return;
  }
  // Decoded length from the base64 length: the payload is not decoded to be measured.
  const base64 = data[2]!;
  const bytes = (base64.length / 4) * 3 - (base64.match(/=+$/)?.[0].length ?? 0);
  if (bytes > MAX_IMAGE_BYTES)
    problems.push(`${where}: the image is ${bytes} bytes, more than 10 MB`);
}

/**
 * Problems of a user message's content given as parts (`text` and `image_url`, as vision
 * fine-tuning takes them); returns how many images it holds, for the per-line limit.
 */
export function checkUserParts(content: unknown[], where: string, problems: string[]): number {
  if (content.length === 0) problems.push(`${where}.content: must not be an empty array`);
  let images = 0;
  content.forEach((part, j) => {
    const at = `${where}.content[${j}]`;
    if (isObject(part) && part.type === 'text') {
      if (typeof part.text !== 'string') problems.push(`${at}.text: must be a string`);
    } else if (isObject(part) && part.type === 'image_url' && isObject(part.image_url)) {
      images++;
      checkImageUrl(part.image_url.url, at, problems);
    } else
      problems.push(`${at}: must be { type: "text", text } or { type: "image_url", image_url }`);
  });
  return images;
}
