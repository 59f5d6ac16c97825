/** A tiny fake order database for the example's tools. */
export const orders: Record<string, { status: string; eta?: string }> = {
  'A-1001': { status: 'shipped', eta: '2026-12-03' },
  'A-1002': { status: 'processing' },
  'A-1003': { status: 'delivered' },
  'A-1004': { status: 'delayed', eta: '2026-12-09' },
  'A-1005': { status: 'shipped', eta: '2026-12-02' },
  'A-1006': { status: 'processing' },
  'A-1007': { status: 'delivered' },
  'A-1008': { status: 'shipped', eta: '2026-12-04' },
  'A-1009': { status: 'shipped', eta: '2026-12-05' },
  'A-1010': { status: 'lost' },
};
