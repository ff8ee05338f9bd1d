/** ari-client ships no types; ariClientApp.ts describes the parts it uses. */
declare module 'ari-client' {
  const ari: { connect(url: string, username: string, password: string): Promise<unknown> };
  export default ari;
}
