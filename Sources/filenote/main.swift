import FilenoteCore

Filenote.main()
