// What the HTTP server (node-server.ts) tells the app about a request's connection, and what the
// app tells it back: the app runs in memory in tests, where none of this exists.
export interface Connection {
  remoteAddress?: string | undefined;
  /**
   * Cuts the connection: the one signal left when a streamed body fails after its headers were
   * sent (the client sees a response cut short, never a complete-looking one or a hang).
   */
  abort?: ((error: Error) => void) | undefined;
  /**
   * Settles once the response was sent or its client went away; in memory (absent), the Response's return stands for
   * it.
   */
  ended?: Promise<void> | undefined;
  /**
   * Told whose answer this is once its workspace was admitted, before it is sent (the stall watch's per-workspace
   * budget).
   */
  attribute?: ((workspaceId: string) => void) | undefined;
}
