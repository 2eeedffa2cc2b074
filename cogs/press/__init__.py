"""From a press to a service call: the one dispatch of every press (:mod:`.router`), what each press does
(:mod:`.controls`), and the Discord layer's one error path (:mod:`.replies`)."""
