// A tree sent to a page is cut to a depth it can render: every recursive step of rendering, validating
// or serialising costs stack, and a note's nesting is the note's to choose (a 2 KB note can nest 1,000
// levels). Nodes below the cut are kept, in document order, as children of their ancestor at the cut.
export const MAX_TREE_DEPTH = 24;

interface Tree<T> {
  children: T[];
}

/** Cuts `root` (in place) so no node lies more than `max` levels below it, without recursion; returns it. */
export function capTreeDepth<T extends Tree<T>>(root: T, max = MAX_TREE_DEPTH): T {
  const stack: { node: T; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    if (depth < max - 1) {
      for (const child of node.children) stack.push({ node: child, depth: depth + 1 });
      continue;
    }
    node.children = flatten(node.children);
  }
  return root;
}

/** Every node under `nodes`, in document (pre-)order, each with no children of its own. */
function flatten<T extends Tree<T>>(nodes: T[]): T[] {
  const out: T[] = [];
  const stack = [...nodes].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    node.children = [];
    out.push(node);
  }
  return out;
}
