"""Block Kit builders, apart from the listeners: ids and limits (`blocks`), the
preferences modal, the Home tab, a plan's message and small notices."""
