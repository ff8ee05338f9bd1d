/**
 * The segments of a path below the interface root, read as the real server's router does
 * (`ast_ari_invoke` in res/res_ari.c walks `strsep(&path, "/")` while the segment is not empty):
 * the walk stops at the first empty segment, so `/channels//x` is `/channels` and `//channels`
 * is the root. A trailing slash is refused before this (see Router).
 *
 * @example
 * pathSegments('/channels//abc'); // ['channels']
 * pathSegments('/channels/abc/play'); // ['channels', 'abc', 'play']
 */
export function pathSegments(path: string): string[] {
  const parts = path.split('/').slice(1);
  const empty = parts.indexOf('');
  return empty < 0 ? parts : parts.slice(0, empty);
}
