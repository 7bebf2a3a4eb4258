def run(settings, ledger):
    pass
