import torch

# A notebook's cells, in order: a CPU model saved and loaded back first...
model_0 = LinearRegressionModel()
torch.save(model_0.state_dict(), "model_0.pth")
loaded_0 = LinearRegressionModel()
loaded_0.load_state_dict(torch.load("model_0.pth"))

# ...then device-agnostic code: this one was saved from the GPU.
device = "cuda" if torch.cuda.is_available() else "cpu"
model_1 = LinearRegressionModelV2().to(device)
torch.save(model_1.state_dict(), "model_1.pth")
loaded_1 = LinearRegressionModelV2()
loaded_1.load_state_dict(torch.load("model_1.pth"))  # want "VK013"
loaded_1.to(device)
