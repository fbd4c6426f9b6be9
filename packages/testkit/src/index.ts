// Public API of @skein/testkit. Each part lives in its own folder; add one export block per part.
export {};
