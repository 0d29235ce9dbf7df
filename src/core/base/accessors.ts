/** The get/set pair of an accessor property (an earlier wrapper's), if `key` is one. */
export function accessorOf(target: object, key: string): PropertyDescriptor | undefined {
  for (let o: object | null = target; o; o = Object.getPrototypeOf(o) as object | null) {
    const d = Object.getOwnPropertyDescriptor(o, key);
    if (d) return d.get && d.set ? d : undefined;
  }
  return undefined;
}
