def write(out):
    pass
