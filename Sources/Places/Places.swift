// The Places module; see its README section in the package README.
