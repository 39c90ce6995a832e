// The context brief's token budget, apart from the brief itself so an interface can name it in
// its help without loading the brief (and zod) first.
export const CONTEXT_DEFAULT_BUDGET = 800;
export const CONTEXT_BUDGET_RANGE = { min: 50, max: 20_000 } as const;
