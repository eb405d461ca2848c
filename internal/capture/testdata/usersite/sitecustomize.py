# A user's own sitecustomize: vramkit must still run it.
import os

os.environ["USER_SITECUSTOMIZE_RAN"] = "1"
