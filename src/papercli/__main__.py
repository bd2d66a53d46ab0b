from .cli import app

if __name__ == "__main__":  # (imported, not run, by a multiprocessing child)
    app(prog_name="papers")
