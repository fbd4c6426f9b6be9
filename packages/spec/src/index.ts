// The contract every Skein package builds on; filled in by the move out of conversation and core.
export {};
