// The HTTPServer module; see its README section in the package README.
