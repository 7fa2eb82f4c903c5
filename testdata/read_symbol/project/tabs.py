class Tabs:
	"""Indented with tabs."""

	def run(self):
		if True:
			return 1


	def stop(self):
		pass
