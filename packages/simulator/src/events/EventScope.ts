/** What the bus needs to know about a channel to route its events. */
export interface ScopeChannel {
  readonly id: string;
  readonly technology: string;
  /** `tech/resource` of the endpoint owning the channel; undefined for channels without one (Local). */
  readonly endpointKey: string | undefined;
}

/**
 * The resources an event is about. The bus delivers the event to every application subscribed
 * to one of them, following the subscription hierarchy: a channel's events also reach
 * subscribers of its endpoint and of its technology.
 */
export interface EventScope {
  readonly channels?: readonly (ScopeChannel | undefined)[];
  readonly bridgeId?: string;
  readonly endpoint?: { readonly technology: string; readonly resource: string };
  readonly deviceName?: string;
  /** Application-directed events (StasisStart, StasisEnd, user events for one app): only this app. */
  readonly app?: string;
  /** Further applications that receive the event whatever they subscribed to (the app that started a playback). */
  readonly alsoApps?: readonly string[];
  /** Server-wide events (global variables): only apps subscribed to all channels. */
  readonly serverWide?: boolean;
  /**
   * The real server sends bridge playback and recording events twice to applications subscribed
   * to everything (once through the bridge, once through its announcer or recorder channel).
   */
  readonly twiceToAll?: boolean;
}
