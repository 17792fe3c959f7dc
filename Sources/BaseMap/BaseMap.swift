// The BaseMap module; see its README section in the package README.
