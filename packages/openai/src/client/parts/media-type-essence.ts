/** `type/subtype` of a media type, lowercase, parameters dropped: what a data: URL should name. */
export function mediaTypeEssence(mediaType: string): string {
  return mediaType.split(';', 1)[0]!.trim().toLowerCase();
}
