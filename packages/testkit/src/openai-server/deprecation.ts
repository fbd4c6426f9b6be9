const warned = new Set<string>();

/** One `DeprecationWarning` per process per old field name, so a long script does not flood. */
export function warnDeprecatedField(field: string, replacement: string): void {
  if (warned.has(field)) return;
  warned.add(field);
  process.emitWarning(
    `@skein/testkit: the scripted turn field \`${field}\` is deprecated; use \`${replacement}\` (the name ScriptedLLMClient uses).`,
    { type: 'DeprecationWarning', code: `SKEIN_TESTKIT_SCRIPT_${field.toUpperCase()}` },
  );
}
