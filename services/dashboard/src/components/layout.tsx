/** Links that route without a reload, page headers (title focus after navigation) and sections. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { BASE, hasNavigated, navigate } from '../lib/router';

export function Link(props: { href: string; children: ComponentChildren; class?: string; 'aria-current'?: 'page' | undefined }) {
  const onClick = (event: MouseEvent) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(props.href);
  };
  return (
    <a href={`${BASE}${props.href}`} class={props.class} aria-current={props['aria-current']} onClick={onClick}>
      {props.children}
    </a>
  );
}

export function PageHeader({ title, description, actions }: { title: string; description?: string; actions?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} — Orquestra`;
    // Screen readers and keyboards start at the new page's title after a navigation (a fresh load
    // keeps the document's order, so the first Tab reaches the skip link).
    if (hasNavigated()) heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <div class="page-header">
      <div>
        <h1 tabIndex={-1} ref={heading}>
          {title}
        </h1>
        {description ? <p class="muted">{description}</p> : null}
      </div>
      {actions ? <div class="page-actions">{actions}</div> : null}
    </div>
  );
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-titulo`;
  return (
    <section class="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}
