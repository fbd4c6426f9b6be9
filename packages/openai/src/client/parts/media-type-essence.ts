/** `type/subtype` of a media type, lowercase, parameters dropped: what a data: URL should name. */
export function mediaTypeEssence(mediaType: string): string {
  return mediaType.split(';', 1)[0]!.trim().toLowerCase();
}

/** The `type` half of a media type (`image` for `image/png`). */
export function mediaFamily(mediaType: string): string {
  return mediaTypeEssence(mediaType).split('/', 1)[0]!;
}
