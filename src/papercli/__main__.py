from .cli import main

if __name__ == "__main__":  # (imported, not run, by a multiprocessing child)
    main()
