/** The Node flags of the service (see node-flags.mjs). */
export declare const SERVICE_NODE_FLAGS: readonly string[];
