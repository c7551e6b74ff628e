// Work a request starts but its answer must not wait for (or reveal): a password-reset mail is
// sent after the answer, so the answer takes the same time whether or not the address has an
// account, and a slow or failing mail server changes nothing the caller sees.

/**
 * Runs `work` once the current answer has been handed to the socket: setImmediate fires after the
 * microtasks that finish and write the response. A failure is given to `onError` (logged), never
 * thrown at a caller who has already left.
 */
export function afterAnswer(work: () => Promise<unknown>, onError: (error: unknown) => void): void {
  setImmediate(() => {
    work().catch(onError);
  });
}
