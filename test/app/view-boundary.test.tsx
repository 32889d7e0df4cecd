// A view that throws shows its error in place and the rest keeps working. React's server renderer does not
// run error boundaries and there is no DOM here, so the boundary's three steps are driven directly: the
// error becomes state, another note (a new resetKey) clears it, and the error state renders the message.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ViewBoundary } from '../../renderer/src/components/ViewBoundary.js';

const child = <p>the mind map</p>;

describe('ViewBoundary', () => {
  it('turns whatever was thrown into an Error it can show', () => {
    expect(ViewBoundary.getDerivedStateFromError(new TypeError('x is undefined')).error.message).toBe('x is undefined');
    expect(ViewBoundary.getDerivedStateFromError('a string').error).toEqual(new Error('a string'));
  });

  it('keeps a shown error for the same note and clears it when another note (resetKey) comes', () => {
    const state = { error: new Error('boom'), key: 'a.md' };
    expect(ViewBoundary.getDerivedStateFromProps({ name: 'The mind map', resetKey: 'a.md', children: child }, state)).toBeNull();
    expect(ViewBoundary.getDerivedStateFromProps({ name: 'The mind map', resetKey: 'b.md', children: child }, state)).toEqual({ error: null, key: 'b.md' });
  });

  it('renders its children until an error, then names the view and the cause with a way to try again', () => {
    const boundary = new ViewBoundary({ name: 'The mind map', resetKey: 'a.md', children: child });
    expect(renderToStaticMarkup(<>{boundary.render()}</>)).toBe('<p>the mind map</p>');
    boundary.state = { error: new Error('cannot read properties of undefined'), key: 'a.md' };
    const html = renderToStaticMarkup(<>{boundary.render()}</>);
    expect(html).toContain('The mind map could not be shown: cannot read properties of undefined');
    expect(html).toMatch(/<button[^>]*>Try again<\/button>/);
    expect(html).not.toContain('<p>the mind map</p>');
  });
});
