export declare const BUILD_STAMP: string;
export declare function buildIsStale(sources?: string[], stamp?: string): boolean;
export declare function build(): number;
