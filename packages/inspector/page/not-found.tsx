/** What the page shows for a link to nothing: a bad link, an unknown page or a missing thread. */
export function NotFound({ what }: { what: 'bad-link' | 'unknown' | 'thread' }) {
  return (
    <section class="not-found">
      <p data-testid="not-found">
        {what === 'bad-link'
          ? 'Not found: this is a bad link (it does not name a thread).'
          : what === 'thread'
            ? 'Not found: the store has no thread by this id.'
            : 'Not found: the inspector has no such page.'}
      </p>
      <p>
        <a href="#/">Back to the threads</a>
      </p>
    </section>
  );
}
